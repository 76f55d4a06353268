/**
 * The Node API routes of the sandbox (under `/<slug>`), each answering from the chain as the gateway spec and
 * the real node do.
 */
import {
  attoToAlph,
  blake2b256,
  bytesToHex,
  contractHint,
  contractIdFromAddress,
  groupOfAddress,
  lockupScriptFromAddress,
  outputKey,
  parseAddress,
  scriptHintOfLockupScript,
} from '../../src/core/protocol';
import type { Account } from '../chain';
import { testContract, type TestContractRequest } from '../../src/core/vm';
import { NETWORK_ID } from '../ledger/types';
import { VmError, type Val } from '../vm/projectContracts';
import { ScriptVmError } from '../vm/scriptCodec';
import { UnknownWorldState, pinnedHash } from '../ledger/history';
import { isSynced, type SandboxContext } from './context';
import {
  HttpError,
  checkAddressParam,
  checkHex32,
  groupParam,
  intParam,
  objectBody as obj,
  routeTable,
  type Route,
} from './plumbing';

export const NODE_VERSION = 'v4.6.0';

export interface NodeRequest {
  q: URLSearchParams;
  body: unknown;
  params: string[];
}

type AddRoute = (method: string, path: string, handler: (r: NodeRequest) => unknown) => void;

/** Every Node API route, in the order they are tried. */
export function nodeRoutes(ctx: SandboxContext): Route<NodeRequest>[] {
  const table = routeTable<NodeRequest>();
  infoRoutes(ctx, table.add);
  addressAndBlockRoutes(ctx, table.add);
  transactionRoutes(ctx, table.add);
  eventRoutes(ctx, table.add);
  contractRoutes(ctx, table.add);
  return table.routes;
}

function infoRoutes(ctx: SandboxContext, route: AddRoute): void {
  route('GET', '/infos/self-clique', () => {
    const port = ctx.port();
    const ok = isSynced(ctx);
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
}

function addressAndBlockRoutes(ctx: SandboxContext, route: AddRoute): void {
  route('GET', '/addresses/{address}/group', ({ params }) => ({
    group: groupOfAddress(checkAddressParam(params[0] as string)),
  }));
  route('GET', '/addresses/{address}/balance', ({ params, q }) => {
    const a = checkAddressParam(params[0] as string);
    const mempool = q.get('mempool') !== 'false';
    const b = ctx.chain.balance(a, mempool);
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
    return { currentHeight: ctx.chain.height(from, to) };
  });
  route('GET', '/blockflow/blocks', ({ q }) => {
    const { fromTs, toTs } = timeRange(ctx, q);
    return { blocks: ctx.chain.blocksBetween(fromTs, toTs) };
  });
  // The node's endpoint beside it (not in the gateway spec; node-openapi.json BlocksAndEventsPerTimeStampRange):
  // the same window and limits, each block with its contract events.
  route('GET', '/blockflow/blocks-with-events', ({ q }) => {
    const { fromTs, toTs } = timeRange(ctx, q);
    return { blocksAndEvents: ctx.chain.blocksWithEventsBetween(fromTs, toTs) };
  });
  // The node's endpoint (not in the gateway spec): false for a block a fork abandoned (control API `/fork`).
  route('GET', '/blockflow/is-block-in-main-chain', ({ q }) => {
    const hash = q.get('blockHash');
    if (hash === null) throw new HttpError(400, 'Invalid value for: query parameter blockHash (missing)');
    return ctx.chain.isInMainChain(checkHex32(hash, 'blockHash'));
  });
  route('GET', '/blockflow/headers/{hash}', ({ params }) => {
    const b = ctx.chain.blocks.get(checkHex32(params[0] as string, 'block_hash'));
    if (!b) throw new HttpError(404, `Block header ${params[0]} not found`, params[0]);
    return ctx.chain.headerJson(b);
  });
  route('GET', '/blockflow/blocks/{hash}', ({ params }) => {
    const b = ctx.chain.blocks.get(checkHex32(params[0] as string, 'block_hash'));
    if (!b) throw new HttpError(404, `Block ${params[0]} not found`, params[0]);
    return ctx.chain.blockJson(b);
  });
}

/** A block listing's `fromTs`/`toTs` (toTs defaults to now), refused as the node refuses them. */
function timeRange(ctx: SandboxContext, q: URLSearchParams): { fromTs: number; toTs: number } {
  const fromTs = intParam(q, 'fromTs', { required: true, min: 0 }) as number;
  const toTs = intParam(q, 'toTs', { min: 0 }) ?? ctx.clock.now();
  if (fromTs > toTs)
    throw new HttpError(
      400,
      `Invalid value for: query parameters (fromTs ${fromTs} must not be after toTs ${toTs})`,
    );
  if (toTs - fromTs > ctx.maxSpan)
    throw new HttpError(
      504,
      `Time span of ${toTs - fromTs} ms is too large to fetch (max ${ctx.maxSpan} ms)`,
    );
  return { fromTs, toTs };
}

function transactionRoutes(ctx: SandboxContext, route: AddRoute): void {
  route('POST', '/transactions/build', ({ body }) => ctx.chain.build(obj(body)));
  route('POST', '/transactions/submit', ({ body }) => ctx.chain.submit(obj(body)));
  route('POST', '/transactions/decode-unsigned-tx', ({ body }) => ctx.chain.decode(obj(body).unsignedTx));
  route('POST', '/transactions/sweep-address/build', ({ body }) => ctx.chain.sweep(obj(body)));
  route('GET', '/transactions/status', ({ q }) => {
    const txId = q.get('txId');
    if (txId === null) throw new HttpError(400, 'Invalid value for: query parameter txId (missing)');
    return ctx.chain.status(checkHex32(txId, 'txId'), groupParam(q, 'fromGroup'), groupParam(q, 'toGroup'));
  });
  route('GET', '/transactions/details/{txId}', ({ params, q }) =>
    ctx.chain.details(
      checkHex32(params[0] as string, 'txId'),
      groupParam(q, 'fromGroup'),
      groupParam(q, 'toGroup'),
    ),
  );
}

function eventRoutes(ctx: SandboxContext, route: AddRoute): void {
  route('GET', '/events/contract/{address}', ({ params, q }) => {
    const a = checkAddressParam(params[0] as string);
    const start = intParam(q, 'start', { required: true, min: 0 }) as number;
    const limit = intParam(q, 'limit', { min: 1, max: 100 }) ?? 100;
    intParam(q, 'group', { min: 0, max: 3 });
    return ctx.chain.contractEvents(a, start, limit);
  });
  route('GET', '/events/contract/{address}/current-count', ({ params }) => ({
    count: ctx.chain.eventCount(checkAddressParam(params[0] as string)),
  }));
  route('GET', '/events/tx-id/{txId}', ({ params }) => ({
    events: ctx.chain.eventsOfTx(checkHex32(params[0] as string, 'txId')),
  }));
  route('GET', '/events/block-hash/{hash}', ({ params }) => ({
    events: ctx.chain.eventsOfBlock(checkHex32(params[0] as string, 'blockHash')),
  }));
}

function contractRoutes(ctx: SandboxContext, route: AddRoute): void {
  route('GET', '/contracts/{address}/state', ({ params }) => {
    const a = checkAddressParam(params[0] as string);
    if (parseAddress(a).type !== 'P2C')
      throw new HttpError(400, `Invalid value for: path parameter address (${a} is not a contract address)`);
    const c = ctx.chain.contracts.get(a);
    if (!c) throw new HttpError(404, `Contract ${a} not found`, a);
    return ctx.chain.contractState(c);
  });
  route('GET', '/contracts/{codeHash}/code', ({ params }) => {
    const h = checkHex32(params[0] as string, 'codeHash');
    const code = ctx.chain.codes.get(h);
    if (code === undefined) throw new HttpError(404, `Contract code with hash ${h} not found`, h);
    return code;
  });

  route('POST', '/contracts/call-contract', ({ body }) => callOne(ctx, body, ''));
  route('POST', '/contracts/call-tx-script', ({ body }) => {
    const request = obj(body);
    const history = historyFields(request, '');
    try {
      return ctx.chain.withWorldState(history.blockHash, () => ctx.chain.callTxScript(request, history));
    } catch (e) {
      if (e instanceof UnknownWorldState) throw new HttpError(400, e.message);
      throw e;
    }
  });
  route('POST', '/contracts/unsigned-tx/execute-script', ({ body }) =>
    ctx.chain.buildExecuteScript(obj(body)),
  );
  route('POST', '/contracts/unsigned-tx/deploy-contract', ({ body }) =>
    ctx.chain.buildDeployContract(obj(body)),
  );
  route('POST', '/contracts/test-contract', ({ body }) => testOne(ctx, obj(body)));
  route('POST', '/contracts/multicall-contract', ({ body }) => {
    const calls = obj(body).calls;
    if (!Array.isArray(calls)) throw new HttpError(400, 'Invalid value for: body (missing calls)');
    if (calls.length > 20)
      throw new HttpError(400, 'The number of contract calls exceeds the maximum limit(20)');
    return { results: calls.map((c, i) => callOne(ctx, c, `calls[${i}].`)) };
  });
}

/** The optional fields a call pins or adds: the block whose state it reads, its txId, the contracts to report. */
export function historyFields(
  body: Record<string, unknown>,
  where: string,
): { blockHash?: string; txId?: string; interested: string[] } {
  let blockHash: string | undefined;
  let txId: string | undefined;
  try {
    blockHash = pinnedHash(body.worldStateBlockHash, `${where}worldStateBlockHash`);
    txId = pinnedHash(body.txId, `${where}txId`);
  } catch (e) {
    throw new HttpError(400, (e as Error).message);
  }
  const raw = body.interestedContracts ?? [];
  if (!Array.isArray(raw) || !raw.every((a) => typeof a === 'string'))
    throw new HttpError(400, `Invalid value for: body (${where}interestedContracts must be addresses)`);
  const interested = raw.map((a) => checkAddressParam(a));
  return { ...(blockHash ? { blockHash } : {}), ...(txId ? { txId } : {}), interested };
}

/** One call-contract request (alone, or one of a multicall's `calls`, named by `where` in errors). */
function callOne(ctx: SandboxContext, raw: unknown, where: string): Record<string, unknown> {
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
  if (call.inputAssets !== undefined && !Array.isArray(call.inputAssets))
    throw new HttpError(400, `Invalid value for: body (${where}inputAssets must be an array)`);
  const history = historyFields(call, where);
  try {
    // The node reads the state after the pinned block (its persisted world state), else the best state.
    return ctx.chain.withWorldState(history.blockHash, () => callNow(ctx, call, history));
  } catch (e) {
    if (e instanceof VmError || e instanceof UnknownWorldState)
      return { type: 'CallContractFailed', error: e.message };
    throw e;
  }
}

/** A checked call against the state the chain holds now (today's, or a pinned block's). */
function callNow(
  ctx: SandboxContext,
  call: Record<string, unknown>,
  history: ReturnType<typeof historyFields>,
): Record<string, unknown> {
  const address = call.address as string;
  const group = call.group as number;
  const methodIndex = call.methodIndex as number;
  const args = (call.args ?? []) as Val[];
  const c = ctx.chain.contracts.get(address);
  if (!c) throw new VmError(`VM execution error: NonExistContract(${address})`);
  if (c.group !== group)
    throw new VmError(`Invalid group ${group} for contract ${address} in group ${c.group}`);
  const caller =
    typeof call.callerAddress === 'string'
      ? checkAddressParam(call.callerAddress)
      : (ctx.chain.accounts[c.group] as Account).address;
  const options = { txId: history.txId, interested: history.interested };
  if (Array.isArray(call.inputAssets) && call.inputAssets.length > 0) {
    // With input assets the node runs the call inside a script that approves them.
    try {
      return {
        type: 'CallContractSucceeded',
        ...ctx.chain.callWithAssets(c, methodIndex, args, caller, call.inputAssets, options),
      };
    } catch (e) {
      if (e instanceof ScriptVmError) throw new VmError(`VM execution error: ${e.message}`);
      throw e;
    }
  }
  const r = ctx.chain.execute(c, methodIndex, args, caller, history.txId);
  return {
    type: 'CallContractSucceeded',
    returns: r.returns,
    gasUsed: r.gas,
    contracts: ctx.chain.statesOf([c.address, ...history.interested]),
    txInputs: [],
    txOutputs: [],
    events: ctx.chain.simulatedEvents(r.events, c.group),
    debugMessages: r.debugMessages,
  };
}

/**
 * The node's test-contract, run on the project's VM: the method of the given bytecode against the given
 * fields, assets and existing contracts, in a world of its own (the chain's state is not read or changed).
 * A run that fails answers 400 with the VM's words, as the node does; the time is the sandbox clock's.
 */
function testOne(ctx: SandboxContext, body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.bytecode !== 'string')
    throw new HttpError(400, 'Invalid value for: body (missing bytecode)');
  const request = {
    ...body,
    blockTimeStamp: typeof body.blockTimeStamp === 'number' ? body.blockTimeStamp : ctx.clock.now(),
    networkId: NETWORK_ID,
  } as TestContractRequest;
  const result = testContract(request);
  if (!result.ok) throw new HttpError(400, result.error);
  const { ok: _ok, txOutputs, ...answer } = result;
  const txId = typeof body.txId === 'string' ? body.txId : '00'.repeat(32);
  return { ...answer, txOutputs: txOutputs.map((o, i) => outputJson(o, outputKey(txId, i))) };
}

/** A generated output in the node's `Output` shape (an asset or a contract output, with hint and key). */
function outputJson(
  o: { address: string; attoAlphAmount: string; tokens: { id: string; amount: string }[] },
  key: string,
): Record<string, unknown> {
  if (parseAddress(o.address).type === 'P2C')
    return { type: 'ContractOutput', hint: contractHint(contractIdFromAddress(o.address)), key, ...o };
  const hint = scriptHintOfLockupScript(lockupScriptFromAddress(o.address));
  return { type: 'AssetOutput', hint, key, ...o, lockTime: 0, message: '' };
}
