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
 * It prints the figures and exits non-zero on any decode failure or mismatch.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Reader, decodeUnsignedTx, hexToBytes } from '../src/core/protocol';
import { OPCODES, decodeContract, isExecutable, readMethod } from '../src/core/vm';
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
    if (method.instrs.every((instr) => isExecutable(instr.name))) tally.statelessMethods += 1;
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
console.log(
  `opcodes seen: ${seenOpcodes.size} distinct of ${OPCODES.length}; ${stateless.length} of them execute in this milestone`,
);
const top = [...seenOpcodes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
console.log(`most frequent: ${top.map(([name, n]) => `${name} ${n}`).join(', ')}`);
const bad = [artifacts.contracts, artifacts.scripts, txs.scripts].some(
  (t) => t.failures.length + t.mismatches.length > 0,
);
process.exit(bad ? 1 : 0);
