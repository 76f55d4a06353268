/**
 * The sandbox gateway: a real HTTP server on 127.0.0.1 implementing the Node Gateway API spec
 * (docs: /work/shared/spec/gateway-api.md) over an in-memory blockflow, plus a loopback-only control
 * API under /__sandbox for tests. Every integration test, benchmark and `npm start` talks to this.
 *
 * Start it in-process with {@link startSandbox}, or from the command line with `npm run sandbox`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bytesToHex, blake2b256, groupOfAddress, parseAddress, attoToAlph } from '../../src/core/protocol';
import { BadRequest, Chain, NotFound, TAMPER_MODES, type Account, type TamperMode } from '../chain';
import { systemClock, type Clock } from '../clock';
import { VmError, counterDef, tokenFaucetDef, type ContractDef, type Val } from '../vm/sampleContracts';
import { FaultInjector, type FaultSpec } from './faults';
import { ScriptRejected, ScriptVmError } from '../vm/scriptCodec';
import { RateLimiter, PLAN_LIMITS, type ApiKeyRecord, type Plan, type KeyStatus } from './ratelimit';

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Mines a block on every chain this often; 0 disables the timer (tests mine on demand). Default 1000. */
  blockTimeMs?: number;
  /** Triggers contract activity this often; 0 (default) disables it. */
  eventsEveryMs?: number;
  slug?: string;
  clock?: Clock;
  /** Largest /blockflow/blocks span before a 504 (the node's limit is 30 min; blocks here are denser). */
  maxBlocksSpanMs?: number;
}

export interface SandboxInfo {
  baseUrl: string;
  slug: string;
  apiKeys: { free: string; starter: string; pro: string; expired: string; revoked: string };
  accounts: Account[];
  contracts: {
    name: string;
    address: string;
    contractId: string;
    groupIndex: number;
    codeHash: string;
    deployTxId: string;
    artifact: string;
  }[];
}

export interface RequestLogEntry {
  seq: number;
  time: number;
  method: string;
  /** Path with query string, as received. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  status?: number;
}

export interface Sandbox extends SandboxInfo {
  /** Base URL of the node API including the slug: `${baseUrl}/${slug}`. */
  apiUrl: string;
  chain: Chain;
  faults: FaultInjector;
  limiter: RateLimiter;
  requests: RequestLogEntry[];
  /** Mines one block on every chain now. */
  mine(): void;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly resource?: string,
  ) {
    super(message);
  }
}

const MAX_BODY = 1 << 20;
const MAX_LOG = 20_000;
const NODE_VERSION = 'v4.6.0';

function isLoopback(addr: string | undefined): boolean {
  return addr === '127.0.0.1' || addr === '::1' || addr === '::ffff:127.0.0.1';
}

function intParam(
  q: URLSearchParams,
  name: string,
  opts: { required?: boolean; min?: number; max?: number } = {},
): number | undefined {
  const raw = q.get(name);
  if (raw === null || raw === '') {
    if (opts.required) throw new HttpError(400, `Invalid value for: query parameter ${name} (missing)`);
    return undefined;
  }
  if (!/^-?\d+$/.test(raw))
    throw new HttpError(
      400,
      `Invalid value for: query parameter ${name} (expected an integer, got '${raw.slice(0, 40)}')`,
    );
  const n = Number(raw);
  if (
    (opts.min !== undefined && n < opts.min) ||
    (opts.max !== undefined && n > opts.max) ||
    !Number.isSafeInteger(n)
  ) {
    throw new HttpError(
      400,
      `Invalid value for: query parameter ${name} (${raw} is out of range${opts.min !== undefined ? ` ${opts.min}..${opts.max ?? ''}` : ''})`,
    );
  }
  return n;
}

function groupParam(q: URLSearchParams, name: string, required = false) {
  return intParam(q, name, { required, min: 0, max: 3 });
}

function checkHex32(s: string, what: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(s))
    throw new HttpError(400, `Invalid value for: path parameter ${what} (expected 32 bytes of hex)`);
  return s.toLowerCase();
}

function checkAddressParam(a: string): string {
  try {
    parseAddress(a);
    return a;
  } catch (e) {
    throw new HttpError(
      400,
      `Invalid value for: path parameter address (Unable to decode address from ${a.slice(0, 80)}: ${(e as Error).message})`,
    );
  }
}

function deterministicKey(label: string): string {
  return `sbx_${label}_${bytesToHex(blake2b256(new TextEncoder().encode(`sandbox api key ${label}`))).slice(0, 32)}`;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const clock = opts.clock ?? systemClock;
  const slug = opts.slug ?? 'sandbox';
  const maxSpan = opts.maxBlocksSpanMs ?? 10 * 60 * 1000;
  const defs: ContractDef[] = [counterDef(), tokenFaucetDef()];
  const chain = new Chain(clock, defs);
  const faults = new FaultInjector();
  const limiter = new RateLimiter(clock);
  const apiKeys = {
    free: deterministicKey('free'),
    starter: deterministicKey('starter'),
    pro: deterministicKey('pro'),
    expired: deterministicKey('expired'),
    revoked: deterministicKey('revoked'),
  };
  limiter.add(apiKeys.free, 'free');
  limiter.add(apiKeys.starter, 'starter');
  limiter.add(apiKeys.pro, 'pro');
  limiter.add(apiKeys.expired, 'starter', 'expired');
  limiter.add(apiKeys.revoked, 'starter', 'revoked');
  let keyCounter = 0;
  let forcedUnsynced = false;
  const requests: RequestLogEntry[] = [];
  let seq = 0;

  const counter = chain.findContract('Counter');
  const faucet = chain.findContract('TokenFaucet');

  // ------------------------------------------------------------------ node API

  type Handler = (ctx: { q: URLSearchParams; body: unknown; params: string[] }) => unknown;
  const routes: { method: string; pattern: RegExp; handler: Handler }[] = [];
  const route = (method: string, path: string, handler: Handler) => {
    const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '([^/]+)')}$`);
    routes.push({ method, pattern, handler });
  };
  const obj = (body: unknown): Record<string, unknown> => {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new HttpError(400, 'Invalid value for: body (expected a JSON object)');
    return body as Record<string, unknown>;
  };
  const synced = () => !faults.unsynced && !forcedUnsynced;

  route('GET', '/infos/self-clique', () => {
    const port = (server.address() as AddressInfo).port;
    const ok = synced();
    return {
      cliqueId: `03${bytesToHex(blake2b256(new TextEncoder().encode('sandbox clique')))}`,
      nodes: [{ address: '127.0.0.1', restPort: port, wsPort: port, minerApiPort: port, isSynced: ok }],
      selfReady: true,
      synced: ok,
    };
  });
  route('GET', '/infos/version', () => ({ version: NODE_VERSION }));
  route('GET', '/infos/chain-params', () => ({
    networkId: 4,
    numZerosAtLeastInHash: 0,
    groupNumPerBroker: 4,
    groups: 4,
  }));
  route('GET', '/infos/current-hashrate', ({ q }) => {
    intParam(q, 'timespan', { min: 1 });
    return { hashrate: '132 MH/s' };
  });
  route('GET', '/addresses/{address}/group', ({ params }) => ({
    group: groupOfAddress(checkAddressParam(params[0] as string)),
  }));
  route('GET', '/addresses/{address}/balance', ({ params, q }) => {
    const a = checkAddressParam(params[0] as string);
    const mempool = q.get('mempool') !== 'false';
    const b = chain.balance(a, mempool);
    const tokens = (m: Map<string, bigint>) => [...m].map(([id, amount]) => ({ id, amount: String(amount) }));
    return {
      balance: String(b.balance),
      balanceHint: `${attoToAlph(b.balance)} ALPH`,
      lockedBalance: String(b.locked),
      lockedBalanceHint: `${attoToAlph(b.locked)} ALPH`,
      ...(b.tokens.size > 0 ? { tokenBalances: tokens(b.tokens) } : {}),
      ...(b.lockedTokens.size > 0 ? { lockedTokenBalances: tokens(b.lockedTokens) } : {}),
      utxoNum: b.utxoNum,
    };
  });
  route('GET', '/blockflow/chain-info', ({ q }) => {
    const from = groupParam(q, 'fromGroup', true) as number;
    const to = groupParam(q, 'toGroup', true) as number;
    return { currentHeight: chain.height(from, to) };
  });
  route('GET', '/blockflow/blocks', ({ q }) => {
    const fromTs = intParam(q, 'fromTs', { required: true, min: 0 }) as number;
    const toTs = intParam(q, 'toTs', { min: 0 }) ?? clock.now();
    if (fromTs > toTs)
      throw new HttpError(
        400,
        `Invalid value for: query parameters (fromTs ${fromTs} must not be after toTs ${toTs})`,
      );
    if (toTs - fromTs > maxSpan)
      throw new HttpError(504, `Time span of ${toTs - fromTs} ms is too large to fetch (max ${maxSpan} ms)`);
    return { blocks: chain.blocksBetween(fromTs, toTs) };
  });
  route('GET', '/blockflow/blocks/{hash}', ({ params }) => {
    const b = chain.blocks.get(checkHex32(params[0] as string, 'block_hash'));
    if (!b) throw new HttpError(404, `Block ${params[0]} not found`, params[0]);
    return chain.blockJson(b);
  });
  route('POST', '/transactions/build', ({ body }) => chain.build(obj(body)));
  route('POST', '/transactions/submit', ({ body }) => chain.submit(obj(body)));
  route('POST', '/transactions/decode-unsigned-tx', ({ body }) => chain.decode(obj(body).unsignedTx));
  route('POST', '/transactions/sweep-address/build', ({ body }) => chain.sweep(obj(body)));
  route('GET', '/transactions/status', ({ q }) => {
    const txId = q.get('txId');
    if (txId === null) throw new HttpError(400, 'Invalid value for: query parameter txId (missing)');
    return chain.status(checkHex32(txId, 'txId'), groupParam(q, 'fromGroup'), groupParam(q, 'toGroup'));
  });
  route('GET', '/transactions/details/{txId}', ({ params, q }) =>
    chain.details(
      checkHex32(params[0] as string, 'txId'),
      groupParam(q, 'fromGroup'),
      groupParam(q, 'toGroup'),
    ),
  );
  route('GET', '/events/contract/{address}', ({ params, q }) => {
    const a = checkAddressParam(params[0] as string);
    const start = intParam(q, 'start', { required: true, min: 0 }) as number;
    const limit = intParam(q, 'limit', { min: 1, max: 100 }) ?? 100;
    intParam(q, 'group', { min: 0, max: 3 });
    return chain.contractEvents(a, start, limit);
  });
  route('GET', '/events/contract/{address}/current-count', ({ params }) => ({
    count: chain.eventCount(checkAddressParam(params[0] as string)),
  }));
  route('GET', '/events/tx-id/{txId}', ({ params }) => ({
    events: chain.eventsOfTx(checkHex32(params[0] as string, 'txId')),
  }));
  route('GET', '/events/block-hash/{hash}', ({ params }) => ({
    events: chain.eventsOfBlock(checkHex32(params[0] as string, 'blockHash')),
  }));
  route('GET', '/contracts/{address}/state', ({ params }) => {
    const a = checkAddressParam(params[0] as string);
    if (parseAddress(a).type !== 'P2C')
      throw new HttpError(400, `Invalid value for: path parameter address (${a} is not a contract address)`);
    const c = chain.contracts.get(a);
    if (!c) throw new HttpError(404, `Contract ${a} not found`, a);
    return chain.contractState(c);
  });
  route('GET', '/contracts/{codeHash}/code', ({ params }) => {
    const h = checkHex32(params[0] as string, 'codeHash');
    const code = chain.codes.get(h);
    if (code === undefined) throw new HttpError(404, `Contract code with hash ${h} not found`, h);
    return code;
  });

  const callOne = (raw: unknown, where: string): Record<string, unknown> => {
    const call = obj(raw);
    if (typeof call.group !== 'number' || !Number.isInteger(call.group) || call.group < 0 || call.group > 3) {
      throw new HttpError(400, `Invalid value for: body (${where}group must be an integer 0..3)`);
    }
    if (typeof call.address !== 'string')
      throw new HttpError(400, `Invalid value for: body (missing ${where}address)`);
    checkAddressParam(call.address);
    if (typeof call.methodIndex !== 'number' || !Number.isInteger(call.methodIndex)) {
      throw new HttpError(400, `Invalid value for: body (missing ${where}methodIndex)`);
    }
    if (call.args !== undefined && !Array.isArray(call.args))
      throw new HttpError(400, `Invalid value for: body (${where}args must be an array)`);
    const c = chain.contracts.get(call.address);
    try {
      if (!c) throw new VmError(`VM execution error: NonExistContract(${call.address})`);
      if (c.group !== call.group)
        throw new VmError(`Invalid group ${call.group} for contract ${call.address} in group ${c.group}`);
      const caller =
        typeof call.callerAddress === 'string'
          ? checkAddressParam(call.callerAddress)
          : (chain.accounts[c.group] as Account).address;
      if (Array.isArray(call.inputAssets) && call.inputAssets.length > 0) {
        // With input assets the node runs the call inside a script that approves them.
        try {
          return {
            type: 'CallContractSucceeded',
            ...chain.callWithAssets(
              c,
              call.methodIndex,
              (call.args ?? []) as Val[],
              caller,
              call.inputAssets,
            ),
          };
        } catch (e) {
          if (e instanceof ScriptVmError) throw new VmError(`VM execution error: ${e.message}`);
          throw e;
        }
      }
      if (call.inputAssets !== undefined && !Array.isArray(call.inputAssets))
        throw new HttpError(400, `Invalid value for: body (${where}inputAssets must be an array)`);
      const r = chain.execute(c, call.methodIndex, (call.args ?? []) as Val[], caller, false);
      const bh = chain.bestBlockHash(c.group);
      const ts = chain.blocks.get(bh)?.timestamp ?? clock.now();
      return {
        type: 'CallContractSucceeded',
        returns: r.returns,
        gasUsed: r.gasUsed,
        contracts: [chain.contractState(c)],
        txInputs: [],
        txOutputs: [],
        events: r.events
          .filter((e) => e.eventIndex !== -3)
          .map((e) => ({
            blockHash: bh,
            timestamp: ts,
            contractAddress: e.contractAddress,
            eventIndex: e.eventIndex,
            fields: e.fields,
          })),
        debugMessages: r.debugMessages,
      };
    } catch (e) {
      if (e instanceof VmError) return { type: 'CallContractFailed', error: e.message };
      throw e;
    }
  };
  route('POST', '/contracts/call-contract', ({ body }) => callOne(body, ''));
  route('POST', '/contracts/call-tx-script', ({ body }) => chain.callTxScript(obj(body)));
  route('POST', '/contracts/unsigned-tx/execute-script', ({ body }) => chain.buildExecuteScript(obj(body)));
  route('POST', '/contracts/unsigned-tx/deploy-contract', ({ body }) => chain.buildDeployContract(obj(body)));
  route('POST', '/contracts/multicall-contract', ({ body }) => {
    const calls = obj(body).calls;
    if (!Array.isArray(calls)) throw new HttpError(400, 'Invalid value for: body (missing calls)');
    if (calls.length > 20)
      throw new HttpError(400, 'The number of contract calls exceeds the maximum limit(20)');
    return { results: calls.map((c, i) => callOne(c, `calls[${i}].`)) };
  });

  // ------------------------------------------------------------------ control API

  const keyRecord = (key: string): ApiKeyRecord => {
    const rec = limiter.get(key) ?? limiter.get(apiKeys[key as keyof typeof apiKeys] ?? '');
    if (!rec) throw new HttpError(404, `Unknown API key ${key}`);
    return rec;
  };
  const contractRef = (ref: string) => {
    const c = chain.findContract(ref);
    if (!c) throw new HttpError(404, `Unknown contract ${ref}`);
    return c;
  };
  const toVals = (args: unknown, c: ReturnType<typeof contractRef>, method: string | number): Val[] => {
    if (args === undefined) return [];
    if (!Array.isArray(args)) throw new HttpError(400, 'args must be an array');
    const fn =
      typeof method === 'number'
        ? c.def.artifact.functions[method]
        : c.def.artifact.functions.find((f) => f.name === method);
    // Plain values are accepted for convenience and typed from the artifact.
    return args.map((a: unknown, i) =>
      typeof a === 'object' && a !== null
        ? (a as Val)
        : {
            type: (fn?.paramTypes[i] ?? 'U256') as Val['type'],
            value: typeof a === 'boolean' ? a : String(a),
          },
    );
  };
  const callContract = (ref: string, body: Record<string, unknown>) => {
    const c = contractRef(ref);
    const method = (body.method ?? 'increment') as string | number;
    const caller =
      typeof body.caller === 'string' ? body.caller : (chain.accounts[c.group] as Account).address;
    try {
      const { tx, returns } = chain.queueCall(c, method, toVals(body.args, c, method), caller);
      if (body.mine !== false) chain.mine();
      return { txId: tx.txId, blockHash: tx.block?.hash, returns, events: chain.eventsOfTx(tx.txId) };
    } catch (e) {
      if (e instanceof VmError) throw new HttpError(400, e.message);
      throw e;
    }
  };
  const eventTick = (() => {
    let n = 0;
    return () => {
      n++;
      if (counter)
        chain.queueCall(counter, 'increment', [], (chain.accounts[counter.group] as Account).address);
      if (faucet && n % 3 === 0)
        chain.queueCall(
          faucet,
          'withdraw',
          [{ type: 'U256', value: '1' }],
          (chain.accounts[1] as Account).address,
        );
    };
  })();

  type Control = (ctx: { body: Record<string, unknown>; params: string[]; q: URLSearchParams }) => unknown;
  const controls: { method: string; pattern: RegExp; handler: Control }[] = [];
  const control = (method: string, path: string, handler: Control) => {
    controls.push({
      method,
      pattern: new RegExp(`^/__sandbox${path.replace(/\{[^}]+\}/g, '([^/]+)')}$`),
      handler,
    });
  };
  control('GET', '/info', () => info());
  control('POST', '/mine', ({ body }) => {
    const n = typeof body.blocks === 'number' ? body.blocks : 1;
    let blocks: string[] = [];
    for (let i = 0; i < n; i++) blocks = chain.mine().map((b) => b.hash);
    return { mined: n, lastBlocks: blocks };
  });
  control('GET', '/faults', () => ({
    faults: faults
      .list()
      .map(({ regex: _r, ...f }) => ({ ...f, remaining: Number.isFinite(f.remaining) ? f.remaining : null })),
  }));
  control('POST', '/faults', ({ body }) => {
    try {
      return { id: faults.add(body as unknown as FaultSpec).id };
    } catch (e) {
      throw new HttpError(400, (e as Error).message);
    }
  });
  control('DELETE', '/faults', () => {
    faults.clear();
    return { cleared: true };
  });
  control('DELETE', '/faults/{id}', ({ params }) => ({ removed: faults.remove(Number(params[0])) }));
  control('POST', '/sync', ({ body }) => {
    forcedUnsynced = body.synced === false;
    return { synced: synced() };
  });
  control('GET', '/requests', ({ q }) => {
    const out = [...requests];
    if (q.get('clear') === '1' || q.get('clear') === 'true') requests.length = 0;
    return { requests: out };
  });
  control('DELETE', '/requests', () => {
    requests.length = 0;
    return { cleared: true };
  });
  control('POST', '/scripts/fail-in-block', ({ body }) => {
    const count = body.count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 100)
      throw new HttpError(400, 'count must be an integer from 0 to 100');
    chain.scriptsToFailInBlock = count;
    return { count };
  });
  control('GET', '/tamper', () => ({ mode: chain.tamper }));
  control('POST', '/tamper', ({ body }) => {
    const mode = (body.mode ?? 'none') as TamperMode;
    if (!TAMPER_MODES.includes(mode))
      throw new HttpError(400, `Unknown tamper mode ${String(mode)}; one of ${TAMPER_MODES.join(', ')}`);
    chain.tamper = mode;
    return { mode };
  });
  control('POST', '/keys', ({ body }) => {
    const plan = (body.plan ?? 'free') as Plan;
    if (!(plan in PLAN_LIMITS)) throw new HttpError(400, `Unknown plan ${String(plan)}`);
    const status = (body.status ?? 'active') as KeyStatus;
    const key = `sbx_${plan}_extra_${++keyCounter}_${bytesToHex(blake2b256(new TextEncoder().encode(`${plan} ${keyCounter} ${clock.now()}`))).slice(0, 16)}`;
    const rec = limiter.add(key, plan, status, {
      perSecond: typeof body.perSecond === 'number' ? body.perSecond : undefined,
      perMonth: typeof body.perMonth === 'number' ? body.perMonth : undefined,
    });
    return { key, plan, status, perSecond: rec.perSecond, perMonth: rec.perMonth };
  });
  control('GET', '/keys/{key}', ({ params }) => keyRecord(params[0] as string));
  control('POST', '/keys/{key}/usage', ({ params, body }) => {
    const rec = keyRecord(params[0] as string);
    if (typeof body.monthlyUsed === 'number') rec.monthlyUsed = body.monthlyUsed;
    if (typeof body.windowCount === 'number') rec.windowCount = body.windowCount;
    if (body.status === 'active' || body.status === 'expired' || body.status === 'revoked')
      rec.status = body.status;
    return rec;
  });
  control('POST', '/keys/{key}/reset', ({ params }) => {
    const rec = keyRecord(params[0] as string);
    rec.monthlyUsed = 0;
    rec.windowCount = 0;
    return rec;
  });
  control('POST', '/contracts/deploy', ({ body }) => {
    const name = String(body.name ?? 'Counter');
    const def = [counterDef, tokenFaucetDef].map((f) => f()).find((d) => d.name === name);
    if (!def) throw new HttpError(400, `Unknown contract ${name}`);
    const deployer = chain.accounts[typeof body.group === 'number' ? body.group : 0] as Account;
    const tx = chain.queueDeploy(def, deployer.group, deployer.address);
    if (body.mine !== false) chain.mine();
    return {
      txId: tx.txId,
      blockHash: tx.block?.hash,
      address: tx.deploy?.address,
      contractId: tx.deploy?.contractId,
    };
  });
  control('POST', '/contracts/{ref}/call', ({ params, body }) =>
    callContract(decodeURIComponent(params[0] as string), body),
  );
  control('POST', '/events/trigger', ({ body }) => {
    const count = typeof body.count === 'number' ? body.count : 1;
    const ref = typeof body.contract === 'string' ? body.contract : 'Counter';
    const results = [];
    for (let i = 0; i < count; i++) results.push(callContract(ref, { ...body, mine: false }));
    if (body.mine !== false) chain.mine();
    return { txIds: results.map((r) => r.txId), events: results.flatMap((r) => chain.eventsOfTx(r.txId)) };
  });
  control('POST', '/fund', ({ body }) => {
    if (typeof body.address !== 'string') throw new HttpError(400, 'address is required');
    checkAddressParam(body.address);
    const amount = BigInt(String(body.attoAlphAmount ?? 10n ** 18n));
    const tx = chain.fund(body.address, amount, typeof body.utxos === 'number' ? body.utxos : 1);
    if (body.mine !== false) chain.mine();
    return { txId: tx.txId };
  });

  // ------------------------------------------------------------------ HTTP plumbing

  const send = (
    res: http.ServerResponse,
    status: number,
    payload: unknown,
    headers: Record<string, string> = {},
  ) => {
    const body =
      typeof payload === 'string' && headers['Content-Type'] === 'text/plain'
        ? payload
        : JSON.stringify(payload);
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      ...headers,
    });
    res.end(body);
  };
  const sendError = (res: http.ServerResponse, e: unknown, headers: Record<string, string>) => {
    if (e instanceof HttpError)
      return send(
        res,
        e.status,
        { detail: e.message, ...(e.resource ? { resource: e.resource } : {}) },
        headers,
      );
    if (e instanceof BadRequest || e instanceof ScriptRejected)
      return send(res, 400, { detail: e.message }, headers);
    if (e instanceof NotFound) return send(res, 404, { detail: e.message, resource: e.resource }, headers);
    console.error('sandbox: internal error', e);
    return send(res, 500, { detail: `Internal server error: ${(e as Error).message}` }, headers);
  };

  const handleControl = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    q: URLSearchParams,
    raw: string,
  ) => {
    if (!isLoopback(req.socket.remoteAddress))
      return send(res, 403, { detail: 'The control API is loopback only' });
    let body: Record<string, unknown> = {};
    if (raw !== '') {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(res, 400, { detail: 'Body is not valid JSON' });
      }
    }
    for (const c of controls) {
      if (c.method !== req.method) continue;
      const m = c.pattern.exec(path);
      if (!m) continue;
      try {
        return send(res, 200, c.handler({ body, params: m.slice(1), q }) ?? {});
      } catch (e) {
        return sendError(res, e, {});
      }
    }
    return send(res, 404, { detail: `Unknown control route ${req.method} ${path}` });
  };

  const handleApi = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    q: URLSearchParams,
    raw: string,
    entry: RequestLogEntry,
  ) => {
    const method = req.method ?? 'GET';
    const second = path.indexOf('/', 1);
    const reqSlug = second < 0 ? path.slice(1) : path.slice(1, second);
    const rest = second < 0 ? '/' : path.slice(second);
    if (reqSlug !== slug)
      return send(
        res,
        404,
        { detail: `Unknown endpoint slug '${reqSlug}'`, resource: reqSlug },
        limiter.anonymousHeaders(),
      );
    const auth = req.headers.authorization;
    const m = auth === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m)
      return send(
        res,
        401,
        { detail: 'Missing or malformed Authorization header: expected "Bearer <API key>"' },
        limiter.anonymousHeaders(),
      );
    const rec = limiter.get(m[1] as string);
    if (!rec) return send(res, 401, { detail: 'Invalid API key' }, limiter.anonymousHeaders());
    if (rec.status === 'expired')
      return send(res, 401, { detail: 'API key has expired' }, limiter.anonymousHeaders());
    if (rec.status === 'revoked')
      return send(res, 401, { detail: 'API key has been revoked' }, limiter.anonymousHeaders());
    const decision = limiter.check(rec);
    if (!decision.allowed) return send(res, 429, { detail: decision.detail }, decision.headers);
    const headers = decision.headers;

    const fault = faults.take(method, rest);
    if (fault) {
      switch (fault.kind) {
        case 'drop':
          entry.status = 0;
          req.socket.destroy();
          return;
        case 'delay':
          await new Promise((r) => setTimeout(r, fault.delayMs ?? 1000));
          break;
        case '500':
          return send(res, 500, { detail: fault.detail ?? 'Internal server error (injected)' }, headers);
        case '503':
          return send(
            res,
            503,
            { detail: fault.detail ?? 'The clique is not synced yet: unsynced clique (injected)' },
            headers,
          );
        case '504':
          return send(res, 504, { detail: fault.detail ?? 'Gateway timeout (injected)' }, headers);
        case 'status':
          return send(
            res,
            fault.status ?? 500,
            { detail: fault.detail ?? `Injected status ${fault.status ?? 500}` },
            headers,
          );
        case 'not-json': {
          const body = '<html><body>502 Bad Gateway</body></html>';
          res.writeHead(200, {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            ...headers,
          });
          res.end(body);
          return;
        }
        case 'wrong-shape':
          return send(res, 200, fault.body ?? { unexpected: true, data: [1, 2, 3] }, headers);
      }
    }

    let body: unknown = undefined;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        return send(res, 400, { detail: 'Invalid value for: body (not valid JSON)' }, headers);
      }
    }
    let pathMatched = false;
    for (const r of routes) {
      const mm = r.pattern.exec(rest);
      if (!mm) continue;
      pathMatched = true;
      if (r.method !== method) continue;
      try {
        return send(res, 200, r.handler({ q, body, params: mm.slice(1).map(decodeURIComponent) }), headers);
      } catch (e) {
        return sendError(res, e, headers);
      }
    }
    return send(
      res,
      404,
      {
        detail: pathMatched ? `Method ${method} not allowed on ${rest}` : `Not found: ${rest}`,
        resource: rest,
      },
      headers,
    );
  };

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const path = qi < 0 ? url : url.slice(0, qi);
    const q = new URLSearchParams(qi < 0 ? '' : url.slice(qi + 1));
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () => {
      const raw = chunks.length === 0 ? '' : Buffer.concat(chunks).toString('utf8');
      if (path.startsWith('/__sandbox/')) return handleControl(req, res, path, q, raw);
      const entry: RequestLogEntry = {
        seq: ++seq,
        time: clock.now(),
        method: req.method ?? 'GET',
        path: url,
        headers: req.headers,
        body: raw,
      };
      requests.push(entry);
      if (requests.length > MAX_LOG) requests.splice(0, requests.length - MAX_LOG);
      res.on('finish', () => (entry.status = res.statusCode));
      if (tooBig) return send(res, 400, { detail: `Request body larger than ${MAX_BODY} bytes` });
      handleApi(req, res, path, q, raw, entry).catch((e: unknown) => sendError(res, e, {}));
    });
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;

  const timers: NodeJS.Timeout[] = [];
  const blockTime = opts.blockTimeMs ?? 1000;
  // A failing tick (e.g. the faucet running dry after hours) must not take the whole server down.
  const guarded = (what: string, f: () => void) => () => {
    try {
      f();
    } catch (e) {
      console.error(`sandbox: ${what} failed: ${(e as Error).message}`);
    }
  };
  if (blockTime > 0)
    timers.push(
      setInterval(
        guarded('mining', () => chain.mine()),
        blockTime,
      ),
    );
  if (opts.eventsEveryMs && opts.eventsEveryMs > 0) {
    timers.push(setInterval(guarded('scheduled contract activity', eventTick), opts.eventsEveryMs));
  }
  // Timers must never keep a test process alive on their own.
  for (const t of timers) t.unref();

  const info = (): SandboxInfo => ({
    baseUrl,
    slug,
    apiKeys,
    accounts: chain.accounts.map((a) => ({ ...a })),
    contracts: [...chain.contracts.values()].map((c) => ({
      name: c.def.name,
      address: c.address,
      contractId: c.contractId,
      groupIndex: c.group,
      codeHash: c.def.artifact.codeHash,
      deployTxId: c.deployTxId,
      artifact: c.def.artifactPath,
    })),
  });

  let closed = false;
  return {
    ...info(),
    apiUrl: `${baseUrl}/${slug}`,
    chain,
    faults,
    limiter,
    requests,
    mine: () => void chain.mine(),
    close: async () => {
      if (closed) return;
      closed = true;
      for (const t of timers) clearInterval(t);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
