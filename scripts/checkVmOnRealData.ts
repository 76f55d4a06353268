/**
 * Local check of src/core/vm's decoder against real data: NOT a test, never run by CI (the data is
 * not in the repository). Run: `npx tsx scripts/checkVmOnRealData.ts [data folder]`; the folder holds
 * artifacts.json and txs.json (default: /work/shared/real-data, where this project's sessions keep it).
 *
 * - Every artifact of artifacts.json: a contract's `bytecode` is cut into its methods with
 *   decodeContract; a script's `bytecodeTemplate` has each `{n}` placeholder (a whole template
 *   instruction) replaced by U256Const0 and is decoded with decodeScript. Each method is then decoded
 *   again by @alephium/web3's codec and compared instruction by instruction (names, codes, and web3's
 *   re-encoding of each instruction against the bytes our decoder consumed).
 * - Every transaction of txs.json with a script: the script is decoded and compared the same way.
 * - Every contract method made only of stateless instructions is run once on the VM (made public, with
 *   zero or empty arguments of its parameter types, as a contract): a smoke run that counts how the
 *   runs end; a JavaScript exception other than UnsupportedByVmError counts as a crash.
 * It prints the figures and exits non-zero on any decode failure, mismatch or crash.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Reader, decodeUnsignedTx, hexToBytes } from '../src/core/protocol';
import {
  ExecutionContext,
  OPCODES,
  UnsupportedByVmError,
  VirtualMachine,
  decodeContract,
  isExecutable,
  readMethod,
  vAddress,
  vBool,
  vByteVec,
  vI256,
  vU256,
  type Method,
  type Val,
} from '../src/core/vm';
import { compareMethodWithWeb3 } from '../test/unit/vm/web3Oracle';

const dir = process.argv[2] ?? '/work/shared/real-data';

interface Tally {
  units: number;
  methods: number;
  instrs: number;
  /** Methods whose every instruction runs in this milestone (no stateful instruction). */
  statelessMethods: number;
  failures: string[];
  mismatches: string[];
}

const newTally = (): Tally => ({
  units: 0,
  methods: 0,
  instrs: 0,
  statelessMethods: 0,
  failures: [],
  mismatches: [],
});
const seenOpcodes = new Map<string, number>();

/** The byte ranges of a script's methods (method count, then each method), to compare one by one. */
function scriptMethodRanges(bytes: Uint8Array): Uint8Array[] {
  const r = new Reader(bytes);
  const count = r.length('methods');
  const ranges: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const start = r.offset;
    readMethod(r, 'stateful');
    ranges.push(bytes.subarray(start, r.offset));
  }
  if (!r.atEnd()) throw new Error(`${r.remaining} byte(s) after the last method`);
  return ranges;
}

function contractMethodRanges(bytes: Uint8Array): Uint8Array[] {
  const contract = decodeContract(bytes);
  const body = bytes.subarray(bytes.length - (contract.methodIndexes.at(-1) ?? 0));
  let start = 0;
  return contract.methodIndexes.map((end) => {
    const range = body.subarray(start, end);
    start = end;
    return range;
  });
}

function checkMethods(label: string, ranges: Uint8Array[], tally: Tally): void {
  ranges.forEach((range, index) => {
    const method = readMethod(new Reader(range), 'stateful');
    tally.methods += 1;
    tally.instrs += method.instrs.length;
    if (method.instrs.every((instr) => !instr.info.stateful)) tally.statelessMethods += 1;
    for (const instr of method.instrs) seenOpcodes.set(instr.name, (seenOpcodes.get(instr.name) ?? 0) + 1);
    for (const m of compareMethodWithWeb3(range))
      tally.mismatches.push(`${label} method ${index}: ${m.what}`);
  });
}

function checkUnit(label: string, bytes: Uint8Array, kind: 'contract' | 'script', tally: Tally): void {
  tally.units += 1;
  try {
    checkMethods(label, kind === 'contract' ? contractMethodRanges(bytes) : scriptMethodRanges(bytes), tally);
  } catch (error) {
    tally.failures.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

interface ArtifactEntry {
  readonly id: string;
  readonly text: string;
}

function checkArtifacts(): { contracts: Tally; scripts: Tally; withoutCode: number } {
  const file = JSON.parse(fs.readFileSync(path.join(dir, 'artifacts.json'), 'utf8')) as {
    artifacts: ArtifactEntry[];
  };
  const contracts = newTally();
  const scripts = newTally();
  let withoutCode = 0;
  for (const entry of file.artifacts) {
    const artifact = JSON.parse(entry.text) as { bytecode?: string; bytecodeTemplate?: string };
    if (typeof artifact.bytecode === 'string') {
      checkUnit(entry.id, hexToBytes(artifact.bytecode), 'contract', contracts);
    } else if (typeof artifact.bytecodeTemplate === 'string') {
      const filled = artifact.bytecodeTemplate.replace(/\{\d+\}/g, '0c');
      checkUnit(entry.id, hexToBytes(filled), 'script', scripts);
    } else {
      withoutCode += 1;
    }
  }
  return { contracts, scripts, withoutCode };
}

function checkTransactions(): { scripts: Tally; transfers: number; undecodable: string[] } {
  const file = JSON.parse(fs.readFileSync(path.join(dir, 'txs.json'), 'utf8')) as {
    cases: Array<{ id: string; unsignedTx?: string }>;
  };
  const scripts = newTally();
  let transfers = 0;
  const undecodable: string[] = [];
  for (const entry of file.cases) {
    if (entry.unsignedTx === undefined) continue;
    let scriptHex: string | undefined;
    try {
      scriptHex = decodeUnsignedTx(entry.unsignedTx).scriptOpt;
    } catch (error) {
      undecodable.push(`${entry.id}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (scriptHex === undefined) transfers += 1;
    else checkUnit(entry.id, hexToBytes(scriptHex), 'script', scripts);
  }
  return { scripts, transfers, undecodable };
}

interface RunTally {
  runs: number;
  completed: number;
  failures: Map<string, number>;
  unsupported: number;
  crashes: string[];
}

const ZERO_LOCKUP = new Uint8Array(33);

/** A zero or empty value per primitive type; arrays and structs flatten into more of them. */
function zeroArgs(paramTypes: readonly string[], count: number): Val[] {
  const byType: Record<string, Val> = {
    Bool: vBool(false),
    I256: vI256(0n),
    U256: vU256(0n),
    ByteVec: vByteVec(new Uint8Array(0)),
    Address: vAddress(ZERO_LOCKUP),
  };
  const values = paramTypes.map((t) => byType[t] ?? vU256(0n));
  return Array.from({ length: count }, (_, i) => values[i] ?? vU256(0n));
}

function runStatelessMethods(
  methods: readonly Method[],
  paramTypes: readonly (readonly string[])[],
  tally: RunTally,
): void {
  methods.forEach((method, index) => {
    if (!method.instrs.every((instr) => !instr.info.stateful)) return;
    tally.runs += 1;
    const ctx = new ExecutionContext({
      blockEnv: { networkId: 4, timeStamp: 1_760_000_000_000n, target: 1n << 200n, hardFork: 'Danube' },
      txEnv: {
        txId: new Uint8Array(32),
        prevOutputs: [],
        gasPrice: 100_000_000_000n,
        gasAmount: 20_000,
        signatures: [],
      },
      gasLimit: 5_000_000,
    });
    const vm = new VirtualMachine(ctx);
    const code = {
      methods: methods.map((m, i) => (i === index ? { ...m, isPublic: true } : m)),
      contractId: new Uint8Array(32).fill(1),
    };
    try {
      vm.start({
        code,
        methodIndex: index,
        args: zeroArgs(paramTypes[index] ?? [], method.argsLength),
        collectReturns: true,
      });
      const outcome = vm.status === 'failed' ? { status: 'failed' as const } : vm.run();
      if (outcome.status === 'completed') tally.completed += 1;
      else if (vm.failure)
        tally.failures.set(vm.failure.failure, (tally.failures.get(vm.failure.failure) ?? 0) + 1);
    } catch (error) {
      if (error instanceof UnsupportedByVmError) tally.unsupported += 1;
      else tally.crashes.push(`method ${index}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

function runArtifacts(): RunTally {
  const file = JSON.parse(fs.readFileSync(path.join(dir, 'artifacts.json'), 'utf8')) as {
    artifacts: ArtifactEntry[];
  };
  const tally: RunTally = { runs: 0, completed: 0, failures: new Map(), unsupported: 0, crashes: [] };
  for (const entry of file.artifacts) {
    const artifact = JSON.parse(entry.text) as {
      bytecode?: string;
      functions?: Array<{ paramTypes?: string[] }>;
    };
    if (typeof artifact.bytecode !== 'string') continue;
    const paramTypes = (artifact.functions ?? []).map((f) => f.paramTypes ?? []);
    runStatelessMethods(decodeContract(hexToBytes(artifact.bytecode)).methods, paramTypes, tally);
  }
  return tally;
}

function report(label: string, tally: Tally): void {
  console.log(
    `${label}: ${tally.units} decoded into ${tally.methods} methods (${tally.statelessMethods} wholly stateless) ` +
      `and ${tally.instrs} instructions; ` +
      `${tally.failures.length} decode failures, ${tally.mismatches.length} mismatches with @alephium/web3`,
  );
  for (const line of [...tally.failures, ...tally.mismatches].slice(0, 20)) console.log(`  ${line}`);
}

const artifacts = checkArtifacts();
const txs = checkTransactions();
const total = artifacts.contracts.units + artifacts.scripts.units + artifacts.withoutCode;
console.log(
  `artifacts.json: ${total} artifacts (${artifacts.withoutCode} without code: constants and enums only)`,
);
report('  contracts (bytecode)', artifacts.contracts);
report('  scripts (bytecodeTemplate, placeholders as U256Const0)', artifacts.scripts);
console.log(
  `txs.json: ${txs.transfers} transfers without a script, ${txs.undecodable.length} unsigned txs not decodable here`,
);
for (const line of txs.undecodable.slice(0, 10)) console.log(`  ${line}`);
report('  tx scripts', txs.scripts);
const stateless = [...seenOpcodes.keys()].filter((name) => isExecutable(name));
// Every opcode executes since the stateful milestone; the stateful ones are run by checkVmDeploys.ts.
console.log(
  `opcodes seen: ${seenOpcodes.size} distinct of ${OPCODES.length}; ${stateless.length} of them execute in this milestone`,
);
const top = [...seenOpcodes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
console.log(`most frequent: ${top.map(([name, n]) => `${name} ${n}`).join(', ')}`);
const runs = runArtifacts();
const endings = [...runs.failures.entries()].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`);
const failedRuns = runs.runs - runs.completed - runs.unsupported - runs.crashes.length;
console.log(
  `stateless contract methods run: ${runs.runs}; ${runs.completed} completed, ${failedRuns} failed ` +
    `(${endings.join(', ')}), ${runs.unsupported} stopped as unsupported, ${runs.crashes.length} crashes`,
);
for (const line of runs.crashes.slice(0, 10)) console.log(`  ${line}`);
const bad =
  [artifacts.contracts, artifacts.scripts, txs.scripts].some(
    (t) => t.failures.length + t.mismatches.length > 0,
  ) || runs.crashes.length > 0;
process.exit(bad ? 1 : 0);
