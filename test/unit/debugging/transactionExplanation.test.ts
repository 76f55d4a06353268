import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { buildMethodCallScript } from '../../../src/core/bytecode/callScript';
import {
  EXPLAIN_COST,
  explainFetchersFrom,
  explainTransaction,
  explanationText,
  NO_OP_SCRIPT,
  type ExplainDeps,
  type ScriptRun,
  whatHappenedView,
} from '../../../src/core/debugging/transactionExplanation';
import { GatewayHttpError } from '../../../src/core/gateway/errors';
import type { CallTxScriptRequest } from '../../../src/core/gateway/requests';
import type { HistorySupport } from '../../../src/core/gateway/history';
import type { BlockHeader, EventByTxId, TxDetails, TxStatus } from '../../../src/core/gateway/schemas';
import { addressFromPublicKey } from '../../../src/core/protocol';
import { RalphSourceMap } from '../../../src/core/ralph/sourceMap';
import { sandboxArtifactFiles } from '../artifacts/helpers';

const SANDBOX = join(import.meta.dirname, '..', '..', '..', 'sandbox', 'project', 'contracts');
const counterRal = readFileSync(join(SANDBOX, 'counter.ral'), 'utf8');
const registry = ArtifactRegistry.fromFiles(sandboxArtifactFiles());
const counter = registry.byName('Counter')!;
const COUNTER = '22fnZLkZJUSyhXgboirmJktWkEBRk1pV8L6gfpc53hvVM';
const PUBLIC_KEY = '0381818e63bd9e35a5489b52a430accefc608fd60aa2c7c0d1b393b5239aedf6b2';
const SIGNER = addressFromPublicKey(PUBLIC_KEY);
const TX = 'c'.repeat(64);
const BLOCK = 'b'.repeat(64);
const PARENT = '5'.repeat(64);

function incrementByScript(step: bigint): string {
  const index = counter.functions.findIndex((f) => f.name === 'incrementBy');
  const fn = counter.functions[index]!;
  return buildMethodCallScript({
    contractId: COUNTER,
    methodIndex: index,
    paramTypes: fn.paramTypes,
    args: [step],
    returnTypes: fn.returnTypes,
  });
}

function details(script: string | undefined, ok: boolean): TxDetails {
  return {
    unsigned: {
      txId: TX,
      version: 0,
      networkId: 4,
      ...(script ? { scriptOpt: script } : {}),
      gasAmount: 20_000,
      gasPrice: '100000000000',
      inputs: [{ outputRef: { hint: 0, key: 'a'.repeat(64) }, unlockScript: `00${PUBLIC_KEY}` }],
      fixedOutputs: [],
    },
    scriptExecutionOk: ok,
    contractInputs: [],
    generatedOutputs: [],
    inputSignatures: [],
    scriptSignatures: [],
  };
}

/** A Counter state in the node's shape, with `count` set. */
function counterState(count: string) {
  const imm: { type: string; value: unknown }[] = [];
  const mut: { type: string; value: unknown }[] = [];
  counter.fieldsSig.names.forEach((name, i) => {
    const type = counter.fieldsSig.types[i]!;
    const value = name === 'count' ? count : type === 'Address' ? SIGNER : type === 'Bool' ? false : '0';
    (counter.fieldsSig.isMutable[i] ? mut : imm).push({ type, value });
  });
  return {
    address: COUNTER,
    bytecode: '',
    codeHash: '0'.repeat(64),
    immFields: imm,
    mutFields: mut,
    asset: { attoAlphAmount: '100000000000000000' },
  };
}

function succeededRun(count: string): ScriptRun {
  return {
    ok: true,
    result: {
      returns: [],
      gasUsed: 100,
      contracts: [counterState(count)],
      txInputs: [],
      txOutputs: [],
      events: [],
      debugMessages: [],
    },
  } as unknown as ScriptRun;
}

interface Fake {
  deps: ExplainDeps;
  scripts: CallTxScriptRequest[];
  probes: number;
}

function fake(options: {
  script?: string;
  ok: boolean;
  history?: HistorySupport;
  events?: EventByTxId[];
  reproduction?: ScriptRun;
  states?: Record<string, string>;
  status?: TxStatus;
}): Fake {
  const header: BlockHeader = {
    hash: BLOCK,
    timestamp: 1,
    chainFrom: 0,
    chainTo: 0,
    height: 9,
    deps: Array.from({ length: 7 }, (_, i) => (i === 3 ? PARENT : String(i).repeat(64))),
  };
  const f: Fake = {
    scripts: [],
    probes: 0,
    deps: {
      txStatus: () =>
        Promise.resolve(
          options.status ?? {
            type: 'Confirmed',
            blockHash: BLOCK,
            txIndex: 0,
            chainConfirmations: 2,
            fromGroupConfirmations: 2,
            toGroupConfirmations: 2,
          },
        ),
      txDetails: () => Promise.resolve(details(options.script, options.ok)),
      eventsByTxId: () => Promise.resolve(options.events ?? []),
      blockHeader: () => Promise.resolve(header),
      historySupport: () => {
        f.probes++;
        return Promise.resolve(options.history ?? 'honoured');
      },
      callTxScript: (request) => {
        f.scripts.push(request);
        if (request.bytecode === NO_OP_SCRIPT) {
          const count = options.states?.[request.worldStateBlockHash ?? ''];
          return Promise.resolve(
            count !== undefined ? succeededRun(count) : { ok: false, detail: 'unknown block' },
          );
        }
        return Promise.resolve(options.reproduction ?? succeededRun('0'));
      },
      artifactOf: (a) => (a === COUNTER ? counter : undefined),
      sources: () =>
        Promise.resolve(RalphSourceMap.build([{ path: 'contracts/counter.ral', text: counterRal }])),
    },
  };
  return f;
}

const ASSERT_LINE = counterRal.split('\n').findIndex((l) => l.includes('assert!(step <= MaxStep'));
const FAILURE = `VM execution error: AssertionFailedWithErrorCode(${COUNTER},1)`;

describe('Explain Transaction (core/debugging/transactionExplanation)', () => {
  it('reproduces a script that failed in its block against the state before it, and puts the error at its line', async () => {
    const f = fake({
      script: incrementByScript(500n),
      ok: false,
      reproduction: { ok: false, detail: FAILURE },
    });
    const x = await explainTransaction(f.deps, TX);
    assert.equal(x.outcome.kind, 'failed-reproduced');
    assert.deepEqual(x.stateBlocks, { block: BLOCK, before: PARENT });
    assert.equal(f.scripts.length, 1, 'one call-tx-script');
    const sent = f.scripts[0]!;
    assert.equal(sent.worldStateBlockHash, PARENT, 'the state just before the block');
    assert.equal(sent.txId, TX);
    assert.equal(sent.callerAddress, SIGNER);
    assert.deepEqual(sent.interestedContracts, [COUNTER]);
    assert.ok(sent.inputAssets && sent.inputAssets.length === 1, 'the signer offers its fee');
    if (x.outcome.kind !== 'failed-reproduced') return;
    const failure = x.outcome.failure;
    assert.equal(failure.context.origin, 'tracked');
    assert.equal(failure.errorName, 'ErrorCodes.StepTooLarge');
    assert.deepEqual(
      failure.sites.map((s) => [s.path, s.span.start.line]),
      [['contracts/counter.ral', ASSERT_LINE]],
    );
    assert.match(
      failure.message,
      new RegExp(`reproduced against the state just before block ${BLOCK} \\(after block ${PARENT}\\)`),
    );
    assert.deepEqual(
      x.calls.map((c) => `${c.contract}.${c.method}`),
      ['Counter.incrementBy'],
    );
    const text = explanationText(x);
    assert.match(text, /Why: Counter\.incrementBy\(500\) \(tracked\) failed/);
    assert.match(text, new RegExp(`At contracts/counter.ral:${ASSERT_LINE + 1}`));
  });

  it("gives the details panel's What happened: the failure, its line and the block state, as plain lines", async () => {
    const f = fake({
      script: incrementByScript(500n),
      ok: false,
      reproduction: { ok: false, detail: FAILURE },
    });
    const view = whatHappenedView(await explainTransaction(f.deps, TX));
    assert.equal(view.outcome, 'The script failed in its block (scriptExecutionOk: false).');
    assert.equal(view.failure?.where, `contracts/counter.ral:${ASSERT_LINE + 1}`);
    assert.match(view.failure?.message ?? '', /ErrorCodes\.StepTooLarge = 1/);
    assert.equal(view.stateBlock, `the state just before block ${BLOCK} (after block ${PARENT})`);
    assert.deepEqual(view.calls, [`Counter.incrementBy(step: U256 = 500) at ${COUNTER}`]);
  });

  it("names the failing line as the glue names files (workspace-relative, never this machine's path)", async () => {
    const f = fake({
      script: incrementByScript(500n),
      ok: false,
      reproduction: { ok: false, detail: FAILURE },
    });
    const x = await explainTransaction(f.deps, TX);
    const placeName = (path: string) => `[${path}]`;
    assert.equal(whatHappenedView(x, placeName).failure?.where, `[contracts/counter.ral]:${ASSERT_LINE + 1}`);
    assert.match(
      explanationText(x, placeName),
      new RegExp(`At \\[contracts/counter.ral\\]:${ASSERT_LINE + 1}`),
    );
  });

  it('says plainly when the reproduction succeeds: the state before the block does not explain the failure', async () => {
    const f = fake({ script: incrementByScript(5n), ok: false, reproduction: succeededRun('6') });
    const x = await explainTransaction(f.deps, TX);
    assert.equal(x.outcome.kind, 'failed-not-reproduced');
    assert.deepEqual(x.stateBlocks, { block: BLOCK, before: PARENT });
    assert.ok(x.notes.some((n) => /the script succeeds: that state does not explain the failure/.test(n)));
    assert.doesNotMatch(explanationText(x), /Why:/);
  });

  for (const history of ['ignored', 'refused'] as const) {
    it(`reads no past state when the gateway's history is ${history}, and says so`, async () => {
      const failed = fake({ script: incrementByScript(500n), ok: false, history });
      const x = await explainTransaction(failed.deps, TX);
      assert.equal(x.outcome.kind, 'failed-unexplained');
      assert.equal(failed.scripts.length, 0, 'no call against a past block');
      assert.equal(x.stateBlocks, undefined);
      assert.equal(x.historyHonoured, false);
      assert.match(explanationText(x), /no past state/);

      const ok = fake({
        script: incrementByScript(5n),
        ok: true,
        history,
        states: { [PARENT]: '1', [BLOCK]: '6' },
      });
      const y = await explainTransaction(ok.deps, TX);
      assert.equal(ok.scripts.length, 0, "today's state is never read as the past");
      assert.deepEqual(y.outcome, { kind: 'succeeded' });
    });
  }

  it('shows the state changes of the contracts a succeeded script called, before and after its block', async () => {
    const debug = Buffer.from('count is now 6', 'utf8').toString('hex');
    const events = [
      {
        blockHash: BLOCK,
        contractAddress: COUNTER,
        eventIndex: 0,
        fields: [
          { type: 'Address', value: SIGNER },
          { type: 'U256', value: '6' },
        ],
      },
      {
        blockHash: BLOCK,
        contractAddress: COUNTER,
        eventIndex: -3,
        fields: [{ type: 'ByteVec', value: debug }],
      },
    ] as unknown as EventByTxId[];
    const f = fake({
      script: incrementByScript(5n),
      ok: true,
      events,
      states: { [PARENT]: '1', [BLOCK]: '6' },
    });
    const x = await explainTransaction(f.deps, TX);
    assert.deepEqual(
      f.scripts.map((s) => [s.bytecode === NO_OP_SCRIPT, s.worldStateBlockHash, s.interestedContracts]),
      [
        [true, PARENT, [COUNTER]],
        [true, BLOCK, [COUNTER]],
      ],
    );
    assert.equal(x.outcome.kind, 'succeeded');
    if (x.outcome.kind !== 'succeeded') return;
    const change = x.outcome.stateChanges?.[0];
    assert.equal(change?.contract, 'Counter');
    const count = change?.diff.fields.find((c) => c.name === 'count');
    assert.deepEqual([count?.before, count?.after, count?.changed], ['1', '6', true]);
    assert.equal(x.events.length, 1, 'the Debug event is a message, not an event');
    assert.match(x.events[0]!.summary, /^Incremented\(by=.*newCount=6\)$/);
    const emitLine = counterRal.split('\n').findIndex((l) => l.includes('emit Debug(`count is now'));
    assert.deepEqual(x.debug, [
      {
        contractAddress: COUNTER,
        message: 'count is now 6',
        at: { path: 'contracts/counter.ral', line: emitLine },
      },
    ]);
    assert.match(explanationText(x), /count: U256 = 1 → 6/);
  });

  it('explains a transfer (no script) without any call-tx-script or probe', async () => {
    const f = fake({ ok: true });
    const x = await explainTransaction(f.deps, TX);
    assert.deepEqual(x.outcome, { kind: 'no-script' });
    assert.equal(f.scripts.length, 0);
    assert.equal(f.probes, 0);
    assert.match(explanationText(x), /No script: a transfer/);
  });

  it('stops at the status when the transaction is not in a block', async () => {
    const f = fake({ ok: true, status: { type: 'MemPooled' } });
    const x = await explainTransaction(f.deps, TX);
    assert.deepEqual(x.outcome, { kind: 'not-mined' });
    assert.match(x.status, /mempool/);
  });

  it("turns the node's refusal of call-tx-script into its text, and lets a 429 through", async () => {
    const refusing = {
      callTxScript: () =>
        Promise.reject(new GatewayHttpError('POST /contracts/call-tx-script', 400, FAILURE)),
    };
    const fetchers = explainFetchersFrom(refusing as never);
    assert.deepEqual(await fetchers.callTxScript({ group: 0, bytecode: '00' }), {
      ok: false,
      detail: FAILURE,
    });
    const limited = {
      callTxScript: () => Promise.reject(new GatewayHttpError('POST /contracts/call-tx-script', 429)),
    };
    await assert.rejects(explainFetchersFrom(limited as never).callTxScript({ group: 0, bytecode: '00' }));
    assert.ok(EXPLAIN_COST.max <= 7 && EXPLAIN_COST.min >= 1);
  });
});
