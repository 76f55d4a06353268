/**
 * The TypeScript VM (src/core/vm): how fast it interprets a CPU-bound loop, and how long emulating a
 * contract deploy takes (the check the extension runs before it signs one). No request is involved.
 *
 * - speed: `sum(n)` of the interpreter's unit test (arithmetic, local loads and stores, a conditional
 *   and a back jump per iteration), encoded to contract bytes by the unit tests' serde helper, decoded
 *   by the VM's own `decodeContract` and run on its `VirtualMachine`;
 * - deploys: the deploy script `prepareDeploy` builds for each contract artifact of sandbox/project,
 *   in an unsigned tx, through `emulateTxScript`; and, when the real-data folder sits beside the
 *   checkout (../shared/real-data, never copied here), every deploy transaction of its txs.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseContractArtifact } from '../src/core/artifacts';
import { parseDeployScript } from '../src/core/bytecode';
import { prepareDeploy } from '../src/core/contracts/actions/deploy';
import { decodeUnsignedTx, hexToBytes } from '../src/core/protocol';
import { VirtualMachine, decodeContract, emulateTxScript, vU256, type Method } from '../src/core/vm';
import { SUM, context } from '../test/unit/vm/assemble';
import { SIGNER_ADDRESS, encodeContract, unsignedTxOf } from '../test/unit/vm/bytecode';
import { root } from './bundle';
import { figure, log, type Figure } from './lib/stats';

/** The table's section: the VM runs on the extension host's main thread, as these runs do. */
const BENCH = 'vm (src/core/vm, main thread)';
/** Iterations of the loop: 13 × 100,000 + 10 instructions, 4.8 M gas (under the 5 M a tx may use). */
const LOOP_N = 100_000n;
const INSTRS_PER_ITERATION = 13n;
/** 4 to set up, 4 for the test that exits, 2 to load and return the sum. */
const INSTRS_OUTSIDE_LOOP = 10n;
/** Emulations of each sandbox deploy per run (after one warm-up round). */
const DEPLOY_ROUNDS = 20;

export interface VmRaw {
  readonly instructions: number;
  readonly loopMs: number[];
  readonly gasUsed: number;
  readonly sandboxDeployMs: number[];
  readonly realDeployMs: number[];
}

function newMachine(methods: readonly Method[], hook?: () => void): VirtualMachine {
  const vm = new VirtualMachine(
    context({ gasLimit: 10_000_000 }),
    hook === undefined ? {} : { beforeInstruction: hook },
  );
  vm.start({ code: { methods }, methodIndex: 0, args: [vU256(LOOP_N)], collectReturns: true });
  return vm;
}

/** Runs the loop to its end; a wrong sum or any other end would make the figure meaningless. */
function runLoop(methods: readonly Method[], hook?: () => void): number {
  const outcome = newMachine(methods, hook).run();
  const expected = (LOOP_N * (LOOP_N + 1n)) / 2n;
  const sum = outcome.status === 'completed' ? outcome.returns[0] : undefined;
  if (sum?.type !== 'U256' || sum.value !== expected) {
    throw new Error(
      `sum(${LOOP_N}) ended ${outcome.status} with ${JSON.stringify(sum, (_, v: unknown) => String(v))}`,
    );
  }
  return outcome.gasUsed;
}

/**
 * The VM's `beforeInstruction` hook fires once per instruction; counted in an untimed run (the hook
 * costs a call per step) and checked against the listing's own count, so the timed runs need neither.
 */
function countInstructions(methods: readonly Method[]): number {
  let count = 0;
  runLoop(methods, () => {
    count += 1;
  });
  const expected = INSTRS_PER_ITERATION * LOOP_N + INSTRS_OUTSIDE_LOOP;
  if (BigInt(count) !== expected)
    throw new Error(`the hook counted ${count} instructions, the listing ${expected}`);
  return count;
}

function loopFigures(runs: number): {
  figures: Figure[];
  instructions: number;
  loopMs: number[];
  gasUsed: number;
} {
  const methods = decodeContract(encodeContract(0, [SUM])).methods;
  const instructions = countInstructions(methods);
  const gasUsed = runLoop(methods); // warm-up: the interpreter's code optimised before timing
  const loopMs: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    runLoop(methods);
    loopMs.push(performance.now() - t);
  }
  const note = `${instructions.toLocaleString('en-US')} instructions per run, counted by the VM's beforeInstruction hook`;
  return {
    figures: [
      figure(
        BENCH,
        'interpreter speed, sum(n) loop',
        'instr/s',
        loopMs.map((ms) => (instructions / ms) * 1000),
        {
          target: '> 1 M instr/s',
          met: (s) => s.min > 1_000_000,
          note: `${note} (13 n + 10, n = ${LOOP_N}); after one warm-up run`,
        },
      ),
      figure(
        BENCH,
        'gas per second, sum(n) loop',
        'gas/s',
        loopMs.map((ms) => (gasUsed / ms) * 1000),
        {
          note: `${gasUsed.toLocaleString('en-US')} gas per run`,
        },
      ),
    ],
    instructions,
    loopMs,
    gasUsed,
  };
}

/** A field value `prepareDeploy` accepts for each primitive type; the signer for addresses. */
function sampleField(type: string): string | undefined {
  if (type === 'U256' || type === 'I256') return '1000';
  if (type === 'Bool') return 'false';
  if (type === 'ByteVec') return '00';
  if (type === 'Address') return SIGNER_ADDRESS;
  return undefined;
}

/** One unsigned deploy tx per contract artifact of the sandbox project, by the extension's own builder. */
function sandboxDeployTxs(): Map<string, string> {
  const dir = path.join(root, 'sandbox', 'project', 'artifacts');
  const txs = new Map<string, string>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ral.json'))) {
    const json = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;
    if (typeof json.bytecode !== 'string') continue; // a script artifact: nothing to deploy
    const artifact = parseContractArtifact(json, file);
    const fields: Record<string, string> = {};
    artifact.fieldsSig.names.forEach((name, i) => {
      const value = sampleField(artifact.fieldsSig.types[i] ?? '');
      if (value !== undefined && !name.startsWith('__')) fields[name] = value;
    });
    const prepared = prepareDeploy({ artifact: artifact.name, fields }, artifact, SIGNER_ADDRESS);
    txs.set(artifact.name, unsignedTxOf(hexToBytes(prepared.expectedScript)));
  }
  return txs;
}

/** Emulates one deploy and checks that it created a contract, so a failing emulation is not timed as fast. */
function emulateDeploy(name: string, unsignedTx: string): number {
  const t = performance.now();
  const result = emulateTxScript({ unsignedTx });
  const ms = performance.now() - t;
  if (!result.ok || !result.contracts.some((c) => c.created)) {
    throw new Error(`deploying ${name} did not create a contract: ${result.error ?? 'no contract created'}`);
  }
  return ms;
}

function timeDeploys(txs: ReadonlyMap<string, string>, rounds: number): number[] {
  for (const [name, tx] of txs) emulateDeploy(name, tx); // warm-up
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) for (const [name, tx] of txs) ms.push(emulateDeploy(name, tx));
  return ms;
}

/** The deploy txs of ../shared/real-data/txs.json (a script that parses as a deploy script), read now. */
function realDeployTxs(file: string): Map<string, string> {
  const { cases } = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    cases: ReadonlyArray<{ id: string; kind: string; unsignedTx: string }>;
  };
  const txs = new Map<string, string>();
  for (const c of cases) {
    const script = c.kind === 'script' ? decodeUnsignedTx(c.unsignedTx).scriptOpt : undefined;
    if (script === undefined) continue;
    try {
      parseDeployScript(script);
      txs.set(c.id, c.unsignedTx);
    } catch {
      // A run-script tx: it calls contracts that exist only on chain.
    }
  }
  return txs;
}

function deployFigure(name: string, ms: readonly number[], note: string): Figure {
  return figure(BENCH, name, 'ms', ms, { target: '< 50 ms', met: (s) => s.max < 50, note });
}

export function vmBench(runs: number): { figures: Figure[]; raw: VmRaw; notes: string[] } {
  const loop = loopFigures(runs);
  const notes: string[] = [];
  const sandbox = sandboxDeployTxs();
  log(`vm: ${sandbox.size} sandbox deploys × ${DEPLOY_ROUNDS * runs}`);
  const sandboxDeployMs = timeDeploys(sandbox, DEPLOY_ROUNDS * runs);
  const figures = [
    ...loop.figures,
    deployFigure(
      'emulate a deploy (sandbox artifacts)',
      sandboxDeployMs,
      `${[...sandbox.keys()].join(', ')}; each ${DEPLOY_ROUNDS * runs} times after a warm-up`,
    ),
  ];
  const realFile = path.resolve(root, '..', 'shared', 'real-data', 'txs.json');
  let realDeployMs: number[] = [];
  if (fs.existsSync(realFile)) {
    const real = realDeployTxs(realFile);
    realDeployMs = timeDeploys(real, runs);
    figures.push(
      deployFigure(
        'emulate a deploy (real deploy txs)',
        realDeployMs,
        `${real.size} deploy txs of ../shared/real-data/txs.json, each ${runs} times after a warm-up`,
      ),
    );
  } else {
    notes.push(
      `vm: no ${path.relative(root, realFile)} beside the checkout; the real deploy txs were skipped.`,
    );
  }
  const raw = {
    instructions: loop.instructions,
    loopMs: loop.loopMs,
    gasUsed: loop.gasUsed,
    sandboxDeployMs,
    realDeployMs,
  };
  return { figures, raw, notes };
}
