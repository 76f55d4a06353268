/**
 * The sandbox's control API (`/__sandbox/...`, loopback only, no auth, not rate limited, not logged): what
 * tests and benches use to mine, inject faults, tamper with builds, manage keys and drive contracts.
 */
import { blake2b256, bytesToHex } from '../../src/core/protocol';
import { scalarText } from '../../src/core/util/guards';
import { TAMPER_MODES, type Account, type Block, type ContractInstance, type TamperMode } from '../chain';
import { counterDef, tokenFaucetDef, VmError, type Val } from '../vm/projectContracts';
import { isSynced, type SandboxContext } from './context';
import type { FaultSpec } from './faults';
import { HttpError, checkAddressParam, routeTable, type Route } from './plumbing';
import { PLAN_LIMITS, type ApiKeyRecord, type KeyStatus, type Plan } from './ratelimit';

export interface ControlRequest {
  body: Record<string, unknown>;
  params: string[];
  q: URLSearchParams;
}

type AddControl = (method: string, path: string, handler: (r: ControlRequest) => unknown) => void;

/** Every control route, matched under `/__sandbox`. */
export function controlRoutes(ctx: SandboxContext): Route<ControlRequest>[] {
  const table = routeTable<ControlRequest>('/__sandbox');
  chainControls(ctx, table.add);
  trafficControls(ctx, table.add);
  keyControls(ctx, table.add);
  contractControls(ctx, table.add);
  return table.routes;
}

/** Info, mining (late blocks too), forks, the tamper modes, scripts made to fail in their block, funding. */
function chainControls(ctx: SandboxContext, control: AddControl): void {
  control('GET', '/info', () => ctx.info());
  control('POST', '/mine', ({ body }) => {
    const n = body.blocks ?? 1;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 10_000)
      throw new HttpError(400, `blocks must be an integer from 0 to 10000, got ${JSON.stringify(n)}`);
    let blocks: Block[] = [];
    // Late blocks (ageMs): timed in a window a scanner has already read; the chain checks ageMs first.
    if (body.ageMs !== undefined) blocks = ctx.chain.mineLate(body.ageMs, n);
    else for (let i = 0; i < n; i++) blocks = ctx.chain.mine();
    return { mined: n, lastBlocks: blocks.map((b) => b.hash), timestamp: blocks[0]?.timestamp };
  });
  control('POST', '/fork', ({ body }) => ctx.chain.fork(body.chainFrom, body.chainTo));
  control('POST', '/scripts/fail-in-block', ({ body }) => {
    const count = body.count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 100)
      throw new HttpError(400, 'count must be an integer from 0 to 100');
    ctx.chain.scriptsToFailInBlock = count;
    return { count };
  });
  control('GET', '/tamper', () => ({ mode: ctx.chain.tamper }));
  control('POST', '/tamper', ({ body }) => {
    const mode = (body.mode ?? 'none') as TamperMode;
    if (!TAMPER_MODES.includes(mode))
      throw new HttpError(400, `Unknown tamper mode ${String(mode)}; one of ${TAMPER_MODES.join(', ')}`);
    ctx.chain.tamper = mode;
    return { mode };
  });
  control('POST', '/fund', ({ body }) => {
    if (typeof body.address !== 'string') throw new HttpError(400, 'address is required');
    checkAddressParam(body.address);
    const amountText = scalarText(body.attoAlphAmount ?? 10n ** 18n);
    if (amountText === undefined) throw new HttpError(400, 'attoAlphAmount must be an integer');
    const amount = BigInt(amountText);
    const tx = ctx.chain.fund(body.address, amount, typeof body.utxos === 'number' ? body.utxos : 1);
    if (body.mine !== false) ctx.chain.mine();
    return { txId: tx.txId };
  });
}

/** Injected faults, the sync flag and the request log: what the gateway answers and what it saw. */
function trafficControls(ctx: SandboxContext, control: AddControl): void {
  control('GET', '/faults', () => ({
    faults: ctx.faults
      .list()
      .map(({ regex: _r, ...f }) => ({ ...f, remaining: Number.isFinite(f.remaining) ? f.remaining : null })),
  }));
  control('POST', '/faults', ({ body }) => {
    try {
      return { id: ctx.faults.add(body as unknown as FaultSpec).id };
    } catch (e) {
      throw new HttpError(400, (e as Error).message);
    }
  });
  control('DELETE', '/faults', () => {
    ctx.faults.clear();
    return { cleared: true };
  });
  control('DELETE', '/faults/{id}', ({ params }) => ({ removed: ctx.faults.remove(Number(params[0])) }));
  control('POST', '/sync', ({ body }) => {
    ctx.forcedUnsynced = body.synced === false;
    return { synced: isSynced(ctx) };
  });
  control('GET', '/requests', ({ q }) => {
    const out = [...ctx.requests];
    if (q.get('clear') === '1' || q.get('clear') === 'true') ctx.requests.length = 0;
    return { requests: out };
  });
  control('DELETE', '/requests', () => {
    ctx.requests.length = 0;
    return { cleared: true };
  });
}

/** API keys: new ones, their counters, their status. */
function keyControls(ctx: SandboxContext, control: AddControl): void {
  control('POST', '/keys', ({ body }) => {
    const plan = (body.plan ?? 'free') as Plan;
    if (!(plan in PLAN_LIMITS)) throw new HttpError(400, `Unknown plan ${String(plan)}`);
    const status = (body.status ?? 'active') as KeyStatus;
    const key = `sbx_${plan}_extra_${++ctx.keyCounter}_${bytesToHex(blake2b256(new TextEncoder().encode(`${plan} ${ctx.keyCounter} ${ctx.clock.now()}`))).slice(0, 16)}`;
    const rec = ctx.limiter.add(key, plan, status, {
      perSecond: typeof body.perSecond === 'number' ? body.perSecond : undefined,
      perMonth: typeof body.perMonth === 'number' ? body.perMonth : undefined,
    });
    return { key, plan, status, perSecond: rec.perSecond, perMonth: rec.perMonth };
  });
  control('GET', '/keys/{key}', ({ params }) => keyRecord(ctx, params[0] as string));
  control('POST', '/keys/{key}/usage', ({ params, body }) => {
    const rec = keyRecord(ctx, params[0] as string);
    if (typeof body.monthlyUsed === 'number') rec.monthlyUsed = body.monthlyUsed;
    if (typeof body.windowCount === 'number') rec.windowCount = body.windowCount;
    if (body.status === 'active' || body.status === 'expired' || body.status === 'revoked')
      rec.status = body.status;
    return rec;
  });
  control('POST', '/keys/{key}/reset', ({ params }) => {
    const rec = keyRecord(ctx, params[0] as string);
    rec.monthlyUsed = 0;
    rec.windowCount = 0;
    return rec;
  });
}

/** Contract deploys and calls as transactions, and triggered events. */
function contractControls(ctx: SandboxContext, control: AddControl): void {
  control('POST', '/contracts/deploy', ({ body }) => {
    const name = body.name ?? 'Counter';
    if (typeof name !== 'string') throw new HttpError(400, 'name must be a contract name');
    const def = [counterDef, tokenFaucetDef].map((f) => f()).find((d) => d.name === name);
    if (!def) throw new HttpError(400, `Unknown contract ${name}`);
    const deployer = ctx.chain.accounts[typeof body.group === 'number' ? body.group : 0] as Account;
    const tx = ctx.chain.queueDeploy(def, deployer.group, deployer.address);
    if (body.mine !== false) ctx.chain.mine();
    return {
      txId: tx.txId,
      blockHash: tx.block?.hash,
      address: tx.deploy?.address,
      contractId: tx.deploy?.contractId,
    };
  });
  control('POST', '/contracts/{ref}/call', ({ params, body }) =>
    callContract(ctx, decodeURIComponent(params[0] as string), body),
  );
  control('POST', '/events/trigger', ({ body }) => {
    const count = typeof body.count === 'number' ? body.count : 1;
    const ref = typeof body.contract === 'string' ? body.contract : 'Counter';
    const results = [];
    for (let i = 0; i < count; i++) results.push(callContract(ctx, ref, { ...body, mine: false }));
    if (body.mine !== false) ctx.chain.mine();
    return {
      txIds: results.map((r) => r.txId),
      events: results.flatMap((r) => ctx.chain.eventsOfTx(r.txId)),
    };
  });
}

function keyRecord(ctx: SandboxContext, key: string): ApiKeyRecord {
  const rec =
    ctx.limiter.get(key) ?? ctx.limiter.get(ctx.apiKeys[key as keyof SandboxContext['apiKeys']] ?? '');
  if (!rec) throw new HttpError(404, `Unknown API key ${key}`);
  return rec;
}

function contractRef(ctx: SandboxContext, ref: string): ContractInstance {
  const c = ctx.chain.findContract(ref);
  if (!c) throw new HttpError(404, `Unknown contract ${ref}`);
  return c;
}

/** Control API arguments: plain values are accepted for convenience and typed from the artifact. */
function toVals(args: unknown, c: ContractInstance, method: string | number): Val[] {
  if (args === undefined) return [];
  if (!Array.isArray(args)) throw new HttpError(400, 'args must be an array');
  const fn =
    typeof method === 'number'
      ? c.def.artifact.functions[method]
      : c.def.artifact.functions.find((f) => f.name === method);
  return args.map((a: unknown, i) =>
    typeof a === 'object' && a !== null
      ? (a as Val)
      : {
          type: (fn?.paramTypes[i] ?? 'U256') as Val['type'],
          value: typeof a === 'boolean' ? a : String(a),
        },
  );
}

/** One contract call as a transaction, mined unless `body.mine` is false. */
function callContract(ctx: SandboxContext, ref: string, body: Record<string, unknown>) {
  const c = contractRef(ctx, ref);
  const method = (body.method ?? 'increment') as string | number;
  const caller =
    typeof body.caller === 'string' ? body.caller : (ctx.chain.accounts[c.group] as Account).address;
  try {
    const { tx, returns } = ctx.chain.queueCall(c, method, toVals(body.args, c, method), caller);
    if (body.mine !== false) ctx.chain.mine();
    return { txId: tx.txId, blockHash: tx.block?.hash, returns, events: ctx.chain.eventsOfTx(tx.txId) };
  } catch (e) {
    if (e instanceof VmError) throw new HttpError(400, e.message);
    throw e;
  }
}

/** The scheduled contract activity of `eventsEveryMs`: Counter.increment, and TokenFaucet.withdraw every third tick. */
export function eventTicker(ctx: SandboxContext): () => void {
  const counter = ctx.chain.findContract('Counter');
  const faucet = ctx.chain.findContract('TokenFaucet');
  let n = 0;
  return () => {
    n++;
    if (counter)
      ctx.chain.queueCall(counter, 'increment', [], (ctx.chain.accounts[counter.group] as Account).address);
    if (faucet && n % 3 === 0)
      ctx.chain.queueCall(
        faucet,
        'withdraw',
        [{ type: 'U256', value: '1' }],
        (ctx.chain.accounts[1] as Account).address,
      );
  };
}
