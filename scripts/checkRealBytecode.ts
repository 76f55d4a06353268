/**
 * Local check of src/core/bytecode against real data: NOT a test, never run by CI (the data is not
 * in the repository). Run: `npx tsx scripts/checkRealBytecode.ts [/work/shared/real-data]`.
 *
 * - Every contract and script artifact in artifacts.json: values are generated per field type (several
 *   seeds) and our buildScriptBytecode / encodeContractFields / buildContractBytecode are compared with
 *   @alephium/web3's functions of the same purpose.
 * - Every deploy transaction in txs.json: its script is read with parseDeployScript, rebuilt with
 *   buildDeployScript and compared byte for byte; the parsed sender must be the tx's signer.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as web3 from '@alephium/web3';
import {
  buildContractBytecode,
  buildDeployScript,
  buildScriptBytecode,
  encodeContractFields,
  parseDeployScript,
} from '../src/core/bytecode';
import type { StructSig } from '../src/core/artifacts/vals';
import { bytesToHex, decodeUnsignedTx } from '../src/core/protocol';
import { Rng, valuesFor } from '../test/unit/bytecode/values';

const dir = process.argv[2] ?? '/work/shared/real-data';
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

for (const f of failures) console.log(`FAIL ${f}`);
console.log(`artifacts: ${agreed}/${checked} agree with @alephium/web3 (${SEEDS} generated value sets each)`);
console.log(
  `deploy scripts rebuilt byte-exact: ${rebuilt}/${deploys} (sender = signer where stated: ${signerMatches})`,
);
console.log(`other script txs wrongly parsed as deploy scripts: ${otherScriptsParsed}/${otherScripts}`);
process.exitCode = failures.length === 0 ? 0 : 1;
