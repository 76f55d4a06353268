/**
 * Local check of src/core/bytecode against real data: NOT a test, never run by CI (the data is not
 * in the repository). Run: `npx tsx scripts/checkRealBytecode.ts <data folder>`, the folder that holds
 * artifacts.json and txs.json.
 *
 * - Every contract and script artifact in artifacts.json: values are generated per field type (several
 *   seeds) and our buildScriptBytecode / encodeContractFields / buildContractBytecode are compared with
 *   @alephium/web3's functions of the same purpose.
 * - Every deploy transaction in txs.json: its script is read with parseDeployScript, rebuilt with
 *   buildDeployScript and compared byte for byte; the parsed sender must be the tx's signer.
 * - Every script that is a single external call with constant arguments (real script transactions, and
 *   script templates filled with generated values): read with decodeScriptCalls, rebuilt with
 *   buildMethodCallScript and compared. A call script without approvals compiled with the TxScript
 *   default `preapprovedAssets = true` differs from ours (we write `false` then) only in that flag;
 *   those are counted apart.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as web3 from '@alephium/web3';
import {
  type MethodCallScriptOptions,
  type ScriptValue,
  buildContractBytecode,
  buildDeployScript,
  buildMethodCallScript,
  buildScriptBytecode,
  decodeScriptCalls,
  describeScriptDifference,
  encodeContractFields,
  parseDeployScript,
  singleCallMismatch,
} from '../src/core/bytecode';
import type { StructSig } from '../src/core/artifacts/vals';
import { bytesToHex, decodeUnsignedTx } from '../src/core/protocol';
import { cliDeploymentCodeHash } from '../src/core/contracts/actions';
import { Rng, valuesFor } from '../test/unit/bytecode/values';

/** The data folder is named by whoever runs the check: no machine's path is built in. */
const dir = process.argv[2];
if (
  dir === undefined ||
  !fs.existsSync(path.join(dir, 'artifacts.json')) ||
  !fs.existsSync(path.join(dir, 'txs.json'))
) {
  console.error('usage: npx tsx scripts/checkRealBytecode.ts <folder holding artifacts.json and txs.json>');
  process.exit(2);
}
const SEEDS = 5;

interface Entry {
  id: string;
  repo: string;
  path: string;
  text: string;
}
type FieldsSig = { names: string[]; types: string[]; isMutable: boolean[] };

const artifacts = (
  JSON.parse(fs.readFileSync(path.join(dir, 'artifacts.json'), 'utf8')) as { artifacts: Entry[] }
).artifacts;

// structs.ral.json belongs to the artifacts of its repository (one per repository here).
const structsByRepo = new Map<string, StructSig[]>();
for (const a of artifacts) {
  if (a.path.endsWith('structs.ral.json')) {
    structsByRepo.set(a.repo, [...(structsByRepo.get(a.repo) ?? []), ...(JSON.parse(a.text) as StructSig[])]);
  }
}

let checked = 0;
let agreed = 0;
/** Scripts to try as single calls: filled templates, then real script transactions. */
const callScripts: { id: string; hex: string }[] = [];
const failures: string[] = [];
for (const a of artifacts) {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(a.text) as Record<string, unknown>;
  } catch {
    continue;
  }
  if (Array.isArray(json) || !json.fieldsSig || (!json.bytecode && !json.bytecodeTemplate)) continue;
  const sig = json.fieldsSig as FieldsSig;
  const structs = structsByRepo.get(a.repo) ?? [];
  checked++;
  try {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const fields = valuesFor(sig.names, sig.types, structs, new Rng(seed * 7919 + checked));
      const sdkFields = fields as web3.Fields;
      if (typeof json.bytecodeTemplate === 'string') {
        const ours = buildScriptBytecode(json.bytecodeTemplate, fields, sig, structs);
        const theirs = web3.buildScriptByteCode(
          json.bytecodeTemplate,
          sdkFields,
          sig,
          structs as web3.Struct[],
        );
        if (ours !== theirs) throw new Error(`seed ${seed}: script bytecode differs`);
        if (seed === 1) callScripts.push({ id: a.id, hex: ours });
      } else {
        const code = json.bytecode as string;
        const ours = encodeContractFields(fields, sig, structs);
        const theirs = web3.encodeContractFields(sdkFields, sig, structs as web3.Struct[]);
        if (
          ours.encodedImmFields !== bytesToHex(theirs.encodedImmFields) ||
          ours.encodedMutFields !== bytesToHex(theirs.encodedMutFields)
        ) {
          throw new Error(`seed ${seed}: encoded fields differ`);
        }
        const full = web3.buildContractByteCode(code, sdkFields, sig, structs as web3.Struct[]);
        if (buildContractBytecode(code, fields, sig, structs) !== full) {
          throw new Error(`seed ${seed}: contract bytecode differs`);
        }
      }
    }
    agreed++;
  } catch (e) {
    failures.push(`${a.id}: ${(e as Error).message}`);
  }
}

interface TxCase {
  id: string;
  kind: string;
  unsignedTx: string;
  source: { entry?: string };
  expect?: { signerAddress?: string };
}
const cases = (JSON.parse(fs.readFileSync(path.join(dir, 'txs.json'), 'utf8')) as { cases: TxCase[] }).cases;
// Deploy transactions: the `contracts` entries of deployments files, and the cases named as deployments.
const isDeploy = (c: TxCase): boolean =>
  c.kind === 'script' &&
  ((c.source.entry ?? '').startsWith('contracts.') || /\.contract-|-deploy$/.test(c.id));
let deploys = 0;
let rebuilt = 0;
let signerMatches = 0;
let otherScriptsParsed = 0;
let otherScripts = 0;
for (const c of cases) {
  if (c.kind !== 'script') continue;
  const script = decodeUnsignedTx(c.unsignedTx).scriptOpt;
  if (script === undefined) continue;
  if (!isDeploy(c)) {
    callScripts.push({ id: c.id, hex: script });
    otherScripts++;
    try {
      parseDeployScript(script);
      otherScriptsParsed++;
      failures.push(`${c.id}: not a deployment, but parsed as a deploy script`);
    } catch {
      // expected: a contract call is not a deploy script
    }
    continue;
  }
  deploys++;
  try {
    const parsed = parseDeployScript(script);
    const again = buildDeployScript({ ...parsed, bytecode: parsed.code });
    if (again !== script) throw new Error('rebuilt script differs');
    rebuilt++;
    if (c.expect?.signerAddress === undefined || c.expect.signerAddress === parsed.sender) signerMatches++;
    else failures.push(`${c.id}: parsed sender ${parsed.sender} is not the signer ${c.expect.signerAddress}`);
  } catch (e) {
    failures.push(`${c.id}: ${(e as Error).message}`);
  }
}

/** The options that would rebuild a single-call script, or why it is not one. */
function singleCall(hex: string): MethodCallScriptOptions | string {
  const methods = decodeScriptCalls(hex);
  if (methods.length !== 1) return `${methods.length} methods`;
  const m = methods[0]!;
  if (m.calls.length !== 1) return `${m.calls.length} calls`;
  const call = m.calls[0]!;
  if (m.localsLength !== 0 || m.argsLength !== 0) return 'locals or arguments';
  // `TxScript Main { return Foo(#id).bar() }` hands the results back instead of popping them.
  if (m.returnLength !== 0) return 'returns values';
  const constant = (v: ScriptValue): v is Exclude<ScriptValue, { kind: 'unknown' }> => v.kind !== 'unknown';
  if (!call.args.every(constant) || call.contractId.kind !== 'ByteVec' || call.returnCount === undefined) {
    return 'run-time values';
  }
  // A generated ByteVec field used as a contract: not a contract id the script could call.
  if (call.contractId.value.length !== 64) return 'not a 32-byte contract id';
  const alph = call.approvals.filter((p) => p.tokenId === undefined);
  const tokens = call.approvals.filter((p) => p.tokenId !== undefined);
  const from = call.approvals[0]?.from;
  if (
    call.approvals.some(
      (p) =>
        p.from.kind !== 'Address' || p.amount.kind !== 'U256' || (p.tokenId && p.tokenId.kind !== 'ByteVec'),
    )
  ) {
    return 'run-time approvals';
  }
  return {
    contractId: call.contractId.value,
    methodIndex: call.methodIndex,
    paramTypes: call.args.map((a) => a.kind),
    args: call.args.map((a) => (a as { value: unknown }).value),
    returnTypes: Array.from({ length: call.returnCount }, () => 'U256'),
    ...(from && from.kind === 'Address'
      ? {
          approve: {
            from: from.value,
            attoAlphAmount: alph.length === 1 ? (alph[0]!.amount as { value: bigint }).value : 0n,
            tokens: tokens.map((t) => ({
              id: (t.tokenId as { value: string }).value,
              amount: (t.amount as { value: bigint }).value,
            })),
          },
        }
      : {}),
  };
}

let singleCalls = 0;
let callsRebuilt = 0;
let callsFlagOnly = 0;
let noApprovalCalls = 0;
let acceptedAsSameCall = 0;
for (const { id, hex } of callScripts) {
  const opts = singleCall(hex);
  if (typeof opts === 'string') continue;
  singleCalls++;
  let ours: string;
  try {
    ours = buildMethodCallScript(opts);
  } catch (e) {
    failures.push(`${id}: single call could not be rebuilt: ${(e as Error).message}`);
    continue;
  }
  // Without approvals, a real single-call script must stand in for ours (what Execute uses it for).
  if (!opts.approve) {
    noApprovalCalls++;
    const mismatch = singleCallMismatch(ours, hex);
    if (mismatch === undefined) acceptedAsSameCall++;
    else failures.push(`${id}: a real single call is not accepted as the same call: ${mismatch}`);
  }
  if (ours === hex) {
    callsRebuilt++;
    if (process.env.VERBOSE) console.log(`exact: ${id}${opts.approve ? ' (with approvals)' : ''}`);
    continue;
  }
  const why = describeScriptDifference(ours, hex) ?? 'bytes differ';
  if (why === 'has usePreapprovedAssets = true instead of false' && !opts.approve) callsFlagOnly++;
  else failures.push(`${id}: single call rebuilt differently: ${why}`);
}

// The CLI's codeHash of every contract in the real deployments files, from the deploy script in its tx.
const deploymentFiles = (
  JSON.parse(fs.readFileSync(path.join(dir, 'artifacts.json'), 'utf8')) as { deployments: Entry[] }
).deployments;
let cliHashes = 0;
let cliHashesEqual = 0;
for (const file of deploymentFiles) {
  const json = JSON.parse(file.text) as unknown;
  for (const entry of (Array.isArray(json) ? json : [json]) as {
    contracts?: Record<string, { unsignedTx?: string; codeHash?: string }>;
  }[]) {
    for (const [name, c] of Object.entries(entry.contracts ?? {})) {
      if (!c.unsignedTx) continue;
      cliHashes++;
      const p = parseDeployScript(decodeUnsignedTx(c.unsignedTx).scriptOpt ?? '');
      const ours = cliDeploymentCodeHash(p.code + p.encodedImmFields + p.encodedMutFields);
      if (ours === c.codeHash) cliHashesEqual++;
      else failures.push(`${file.id} ${name}: codeHash ${String(c.codeHash)}, ours ${ours}`);
    }
  }
}

for (const f of failures) console.log(`FAIL ${f}`);
console.log(`artifacts: ${agreed}/${checked} agree with @alephium/web3 (${SEEDS} generated value sets each)`);
console.log(
  `deploy scripts rebuilt byte-exact: ${rebuilt}/${deploys} (sender = signer where stated: ${signerMatches})`,
);
console.log(`other script txs wrongly parsed as deploy scripts: ${otherScriptsParsed}/${otherScripts}`);
console.log(
  `single-call scripts (of ${callScripts.length} filled templates and script txs) rebuilt byte-exact: ` +
    `${callsRebuilt}/${singleCalls}; differing only in the no-approval preapprovedAssets flag: ${callsFlagOnly}`,
);
console.log(
  `real single calls without approvals accepted as the same call as ours (singleCallMismatch): ${acceptedAsSameCall}/${noApprovalCalls}`,
);
console.log(
  `deployments files: the CLI's codeHash recomputed (cliDeploymentCodeHash): ${cliHashesEqual}/${cliHashes}`,
);
process.exitCode = failures.length === 0 ? 0 : 1;
