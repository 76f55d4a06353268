/**
 * Local check of src/core/vm's `emulateTxScript` against real deployments: NOT a unit test (the data
 * is not in the repository). Run: `npx tsx scripts/checkVmDeploys.ts [data folder]`; the folder holds
 * txs.json and artifacts.json (default: ../shared/real-data).
 *
 * Every script transaction of txs.json is emulated (with the default inputs of the API: 10^24 atto
 * ALPH each, no tokens). A deploy (an entry under `contracts` of a deployments file of artifacts.json,
 * matched by tx id) is checked on five points:
 * - gas: the node's deploy estimate is scriptGas + max(20,000, base), base = 1,000 + 4,500 per fixed
 *   output + 2,000 per input + 2,060 for the first P2PKH one, so scriptGas = gasAmount − 20,000 while
 *   base stays below it (checked per tx);
 * - contract id: the created contract's id equals the file's `contractInstance.contractId`;
 * - code and fields: @alephium/cli records as `codeHash` the SHA-256 of the hex text of the deploy
 *   bytecode followed by the encoded immutable and mutable fields (`packages/cli/src/deployment.ts`),
 *   so hashing the created contract's code and fields the same way checks both;
 * - assets: the contract's ALPH equals the recorded `attoAlphAmount` (when recorded), its own token
 *   equals the recorded `issueTokenAmount`, and it holds the recorded `tokens`.
 * The run fails (exit 1) when a deploy disagrees for any reason but a gas short by whole change
 * outputs that the deployer's tokens explain (see `explainByTokens`).
 * The other script transactions (run-script entries, bridge transfers) call contracts that exist only
 * on chain; they run after the deploys, against the contracts that the emulated txs of their network
 * created (their state right after creation), which is what the files can tell offline, and with the
 * tokens those txs paid the signer (an `issueTokenTo` deploy) in its first input.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeUnsignedTx } from '../src/core/protocol';
import {
  emulateTxScript,
  serializeVals,
  valFromNode,
  type EmulateTxScriptResult,
  type EmulatedContract,
  type InputAsset,
  type NodeContractState,
} from '../src/core/vm';

const dir = process.argv[2] ?? '../shared/real-data';
const GAS_FLOOR = 20_000;

interface TxCase {
  readonly id: string;
  readonly kind: string;
  readonly unsignedTx: string;
  readonly txId: string;
  readonly network?: string;
  readonly expect?: { readonly signerAddress?: string };
}

interface DeployEntry {
  readonly file: string;
  readonly name: string;
  readonly codeHash?: string;
  readonly attoAlphAmount?: string;
  readonly issueTokenAmount?: string;
  readonly tokens?: Record<string, string>;
  readonly contractInstance?: { readonly contractId: string };
}

type Point = 'gas' | 'id' | 'code' | 'assets';
const POINTS: readonly Point[] = ['gas', 'id', 'code', 'assets'];

function readJson<T>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as T;
}

/** Deploy and run-script entries of every deployments file, by tx id. */
function deploymentEntries(): Map<string, DeployEntry & { readonly section: string }> {
  const files = readJson<{ deployments: Array<{ id: string; text: string }> }>('artifacts.json').deployments;
  const byTx = new Map<string, DeployEntry & { readonly section: string }>();
  for (const file of files) {
    const parsed = JSON.parse(file.text) as Record<
      string,
      Record<string, DeployEntry & { txId: string }> | undefined
    >;
    for (const section of ['contracts', 'scripts']) {
      for (const [name, entry] of Object.entries(parsed[section] ?? {})) {
        byTx.set(entry.txId, { ...entry, file: file.id, name, section });
      }
    }
  }
  return byTx;
}

/** The base of the node's estimate: the scriptGas = gasAmount − 20,000 rule holds while it is lower. */
function scriptGasOf(unsignedTx: string): number {
  const tx = decodeUnsignedTx(unsignedTx);
  const firstP2pkh = tx.inputs[0]?.unlockScript.startsWith('00') === true ? 2060 : 0;
  const base = 1000 + 4500 * tx.fixedOutputs.length + 2000 * tx.inputs.length + firstP2pkh;
  return tx.gasAmount - Math.max(GAS_FLOOR, base);
}

/** @alephium/cli's `codeHash`: SHA-256 of the hex text of bytecode ‖ immutable ‖ mutable fields. */
function cliCodeHash(contract: EmulatedContract): string {
  const hex = (fields: EmulatedContract['immFields']): string =>
    Buffer.from(serializeVals(fields.map(valFromNode))).toString('hex');
  const text = contract.bytecode + hex(contract.immFields) + hex(contract.mutFields);
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The issued tokens sit in the contract, or (`issueTokenTo`) in the recipient's generated output. */
function issuedAmount(
  contract: EmulatedContract,
  outputs: EmulateTxScriptResult['generatedOutputs'],
): string | undefined {
  const own = contract.tokens.find((t) => t.id === contract.contractId);
  if (own !== undefined) return own.amount;
  return outputs.flatMap((o) => o.tokens).find((t) => t.id === contract.contractId)?.amount;
}

function assetsAgree(contract: EmulatedContract, result: EmulateTxScriptResult, entry: DeployEntry): boolean {
  if (entry.attoAlphAmount !== undefined && entry.attoAlphAmount !== contract.attoAlphAmount) return false;
  if (
    entry.issueTokenAmount !== undefined &&
    issuedAmount(contract, result.generatedOutputs) !== entry.issueTokenAmount
  ) {
    return false;
  }
  const held = new Map(contract.tokens.map((t) => [t.id, t.amount]));
  return Object.entries(entry.tokens ?? {}).every(([id, amount]) => held.get(id) === amount);
}

function checkDeploy(
  result: EmulateTxScriptResult,
  expectedGas: number,
  entry: DeployEntry,
): Record<Point, boolean> {
  const created = result.contracts.find((x) => x.created);
  return {
    gas: result.gasUsed === expectedGas,
    id: created !== undefined && created.contractId === entry.contractInstance?.contractId,
    code: created !== undefined && entry.codeHash === cliCodeHash(created),
    assets: created !== undefined && assetsAgree(created, result, entry),
  };
}

/** The contracts the emulated txs of each network created or changed, as node states, in tx order. */
const worlds = new Map<string, Map<string, NodeContractState>>();

function remember(network: string, contracts: readonly EmulatedContract[]): void {
  const world = worlds.get(network) ?? new Map<string, NodeContractState>();
  for (const c of contracts) {
    world.set(c.address, {
      address: c.address,
      bytecode: c.bytecode,
      codeHash: c.codeHash,
      immFields: c.immFields,
      mutFields: c.mutFields,
      asset: { attoAlphAmount: c.attoAlphAmount, tokens: c.tokens },
    });
  }
  worlds.set(network, world);
}

const worldOf =
  (network: string) =>
  (address: string): NodeContractState | undefined =>
    worlds.get(network)?.get(address);

const tally = { deploys: 0, others: 0, othersGas: 0, all: new Map<Point, number>(POINTS.map((p) => [p, 0])) };

/**
 * The files do not date their txs (a block hash only), so each deploy's gas is also checked under
 * the rules of every fork since Leman, at a time inside it on both networks (mainnet and testnet
 * activations in the node's network_*.conf.tmpl).
 */
const FORK_TIMES: ReadonlyArray<readonly [string, number]> = [
  ['Leman', 1_700_000_000_000],
  ['Rhone', 1_730_000_000_000],
  ['Danube', 1_760_000_000_000],
];
const gasByFork = new Map<string, number>();

function countGasByFork(c: TxCase, expectedGas: number): void {
  for (const [fork, blockTimeStamp] of FORK_TIMES) {
    const result = emulateTxScript({ unsignedTx: c.unsignedTx, blockTimeStamp });
    if (result.gasUsed === expectedGas) gasByFork.set(fork, (gasByFork.get(fork) ?? 0) + 1);
  }
}
const misses: string[] = [];

/**
 * A gas short by k × 4,500 means k more generated outputs in the node's estimate: the deployer's
 * change split into one output per token it held (one token per asset output). Re-run with k tokens
 * in the first input to tell that from a VM error.
 */
function explainByTokens(c: TxCase, short: number): string {
  const k = short / 4500;
  if (!Number.isInteger(k) || k <= 0 || c.expect?.signerAddress === undefined) return '';
  const tokens = Array.from({ length: k }, (_, i) => ({
    id: (i + 1).toString(16).padStart(64, '0'),
    amount: '1',
  }));
  const inputAssets = [{ address: c.expect.signerAddress, attoAlphAmount: (10n ** 24n).toString(), tokens }];
  const again = emulateTxScript({ unsignedTx: c.unsignedTx, inputAssets });
  return again.gasUsed === scriptGasOf(c.unsignedTx)
    ? `; agrees when the deployer's inputs hold ${k} tokens: ${k} more change outputs`
    : '';
}

const deployMillis: number[] = [];
/** Deploys that disagree on a point other than a gas explained by the deployer's tokens. */
let unexplained = 0;

function runDeploy(c: TxCase, entry: DeployEntry): void {
  const started = performance.now();
  const result = emulateTxScript({ unsignedTx: c.unsignedTx });
  deployMillis.push(performance.now() - started);
  const expectedGas = scriptGasOf(c.unsignedTx);
  const points = checkDeploy(result, expectedGas, entry);
  countGasByFork(c, expectedGas);
  tally.deploys += 1;
  for (const p of POINTS) if (points[p]) tally.all.set(p, (tally.all.get(p) ?? 0) + 1);
  if (result.ok) remember(c.network ?? '', result.contracts);
  if (result.ok) pay(c.network ?? '', result.generatedOutputs);
  const failedPoints = POINTS.filter((p) => !points[p]);
  if (failedPoints.length > 0) {
    const why = points.gas ? '' : explainByTokens(c, expectedGas - result.gasUsed);
    if (why === '' || failedPoints.length > 1) unexplained += 1;
    const error = result.error === undefined ? '' : `, ${result.error}`;
    misses.push(
      `${c.id}: ${failedPoints.join(', ')} differ (gas ${result.gasUsed} vs ${expectedGas}${error}${why})`,
    );
  }
}

/** Tokens the emulated txs of each network paid to asset addresses (an `issueTokenTo` deploy). */
const wallets = new Map<string, Map<string, bigint>>();

function pay(network: string, outputs: EmulateTxScriptResult['generatedOutputs']): void {
  for (const output of outputs) {
    for (const token of output.tokens) {
      const key = `${network}/${output.address}`;
      const wallet = wallets.get(key) ?? new Map<string, bigint>();
      wallet.set(token.id, (wallet.get(token.id) ?? 0n) + BigInt(token.amount));
      wallets.set(key, wallet);
    }
  }
}

/**
 * The signer's first input holds what earlier emulated txs paid it of the tokens the entry spends:
 * the node's estimate selects only the UTXOs that the tx's amounts need, one token per asset UTXO.
 */
function inputsOf(c: TxCase, entry: DeployEntry | undefined): InputAsset[] | undefined {
  const signer = c.expect?.signerAddress;
  const wallet = signer === undefined ? undefined : wallets.get(`${c.network ?? ''}/${signer}`);
  if (signer === undefined || wallet === undefined) return undefined;
  const spent = new Set(Object.keys(entry?.tokens ?? {}));
  const held = [...wallet].filter(([id]) => spent.has(id));
  const tokens = held.map(([id, amount]) => ({ id, amount: amount.toString() }));
  return [{ address: signer, attoAlphAmount: (10n ** 24n).toString(), tokens }];
}

function runOther(c: TxCase, entry: DeployEntry | undefined): void {
  const network = c.network ?? '';
  const inputAssets = inputsOf(c, entry);
  const request = { unsignedTx: c.unsignedTx, contractState: worldOf(network) };
  const result = emulateTxScript(inputAssets === undefined ? request : { ...request, inputAssets });
  if (result.ok) remember(network, result.contracts);
  const expectedGas = scriptGasOf(c.unsignedTx);
  tally.others += 1;
  if (result.gasUsed === expectedGas) tally.othersGas += 1;
  else
    misses.push(
      `${c.id} (not a deploy): gas ${result.gasUsed} vs ${expectedGas}${result.error === undefined ? '' : `, ${result.error}`}`,
    );
}

function main(): void {
  const cases = readJson<{ cases: Array<TxCase & { network?: string }> }>('txs.json').cases.filter(
    (c) => c.kind === 'script',
  );
  const entries = deploymentEntries();
  const deploys = cases.filter((c) => entries.get(c.txId)?.section === 'contracts');
  const others = cases.filter((c) => entries.get(c.txId)?.section !== 'contracts');
  for (const c of deploys) runDeploy(c, entries.get(c.txId) as DeployEntry);
  for (const c of others) runOther(c, entries.get(c.txId));
  for (const line of misses) console.log(`  ${line}`);
  const figures = POINTS.map((p) => `${p} ${tally.all.get(p) ?? 0}/${tally.deploys}`).join(', ');
  console.log(`deploys: ${figures}`);
  const forks = FORK_TIMES.map(([fork]) => `${fork} ${gasByFork.get(fork) ?? 0}/${tally.deploys}`).join(', ');
  console.log(`deploy gas under each fork's rules: ${forks}`);
  const sorted = [...deployMillis].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const max = sorted[sorted.length - 1] ?? 0;
  console.log(`time to emulate a deploy: median ${median.toFixed(2)} ms, max ${max.toFixed(2)} ms`);
  console.log(
    `other script txs (after the deploys, against the contracts the emulated txs created): gas ${tally.othersGas}/${tally.others}`,
  );
}

main();
// A deploy that disagrees for a reason the data does not explain is a VM error: fail the run.
process.exitCode = unexplained === 0 ? 0 : 1;
