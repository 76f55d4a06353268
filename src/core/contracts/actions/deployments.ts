/**
 * The deployments file (@alephium/cli's format): a deployed contract recorded beside the others, under
 * a name that does not clobber another address's entry.
 */
import { equalBytes, lockupScriptFromAddress } from '../../protocol';
import type { BuiltDeploy, PreparedDeploy } from './deploy';

// ---- the deployments file ------------------------------------------------------------------------------

export interface DeploymentRecord {
  readonly name: string;
  readonly deployerAddress: string;
  readonly txId: string;
  readonly unsignedTx: string;
  readonly signature: string;
  readonly gasPrice: string;
  readonly gasAmount: number;
  readonly blockHash?: string;
  /** What @alephium/cli writes: SHA-256 of the deploy bytecode's hex text (cliDeploymentCodeHash). */
  readonly codeHash: string;
  readonly contractAddress: string;
  readonly contractId: string;
  readonly groupIndex: number;
  readonly attoAlphAmount?: string;
  /** Initial tokens, `{tokenId: amount}` as the CLI records them. */
  readonly tokens?: Readonly<Record<string, string>>;
  readonly issueTokenAmount?: string;
}

/**
 * The record of a deploy the extension signed and sent, with what `@alephium/cli` records for the same
 * deploy: the CLI's codeHash of the code deployed (the debug build on a devnet), the deposit, tokens.
 */
export function deploymentRecord(
  prepared: PreparedDeploy,
  built: BuiltDeploy,
  sent: { readonly name: string; readonly signature: string; readonly blockHash?: string | undefined },
): DeploymentRecord {
  return {
    name: sent.name,
    deployerAddress: prepared.signerAddress,
    txId: built.verified.txId,
    unsignedTx: built.verified.unsignedTx,
    signature: sent.signature,
    gasPrice: built.verified.gasPrice.toString(),
    gasAmount: built.verified.gasAmount,
    ...(sent.blockHash ? { blockHash: sent.blockHash } : {}),
    codeHash: prepared.cliCodeHash,
    contractAddress: built.contractAddress,
    contractId: built.contractId,
    groupIndex: built.verified.fromGroup,
    ...(prepared.depositAsked ? { attoAlphAmount: prepared.initialAttoAlph.toString() } : {}),
    ...(prepared.initialTokens.length > 0
      ? { tokens: Object.fromEntries(prepared.initialTokens.map((t) => [t.id, t.amount.toString()])) }
      : {}),
    ...(prepared.issueTokenAmount !== undefined
      ? { issueTokenAmount: prepared.issueTokenAmount.toString() }
      : {}),
  };
}

interface DeploymentEntry {
  deployerAddress: string;
  contracts: Record<string, unknown>;
  scripts: Record<string, unknown>;
  migrations: Record<string, unknown>;
  [k: string]: unknown;
}

/** `Counter`, or `Counter:2`, `Counter:3`… when the name is taken by another instance (the CLI's tag form). */
function freeName(contracts: Record<string, unknown>, name: string, address: string): string {
  const sameAddress = (key: string) =>
    (contracts[key] as { contractInstance?: { address?: string } } | undefined)?.contractInstance?.address ===
    address;
  if (!(name in contracts) || sameAddress(name)) return name;
  for (let n = 2; ; n++) {
    const key = `${name}:${n}`;
    if (!(key in contracts) || sameAddress(key)) return key;
  }
}

/**
 * The deployments file with one more contract, in the format `@alephium/cli` writes
 * (`deployments/.deployments.<network>.json`): one object per deployer (an array when there are
 * several), contracts keyed by name. Other entries and unknown keys are kept as they were.
 * Returns the new text and the name used.
 */
export function addDeployment(
  existingText: string | undefined,
  record: DeploymentRecord,
): { text: string; name: string } {
  let parsed: unknown = undefined;
  if (existingText !== undefined && existingText.trim() !== '') {
    try {
      parsed = JSON.parse(existingText) as unknown;
    } catch (e) {
      throw new Error(`the deployments file is not JSON (${(e as Error).message}); it was left as it is`);
    }
  }
  const list: DeploymentEntry[] =
    parsed === undefined
      ? []
      : Array.isArray(parsed)
        ? (parsed as DeploymentEntry[])
        : [parsed as DeploymentEntry];
  if (list.some((d) => typeof d !== 'object' || d === null || typeof d.deployerAddress !== 'string')) {
    throw new Error(
      'the deployments file does not have the shape @alephium/cli writes; it was left as it is',
    );
  }
  let entry = list.find((d) => d.deployerAddress === record.deployerAddress);
  if (!entry) {
    entry = { deployerAddress: record.deployerAddress, contracts: {}, scripts: {}, migrations: {} };
    list.push(entry);
  }
  entry.contracts ??= {};
  entry.scripts ??= {};
  entry.migrations ??= {};
  const name = freeName(entry.contracts, record.name, record.contractAddress);
  entry.contracts[name] = {
    txId: record.txId,
    unsignedTx: record.unsignedTx,
    signature: record.signature,
    gasPrice: record.gasPrice,
    gasAmount: record.gasAmount,
    ...(record.blockHash ? { blockHash: record.blockHash } : {}),
    codeHash: record.codeHash,
    ...(record.attoAlphAmount !== undefined ? { attoAlphAmount: record.attoAlphAmount } : {}),
    ...(record.tokens !== undefined ? { tokens: record.tokens } : {}),
    ...(record.issueTokenAmount !== undefined ? { issueTokenAmount: record.issueTokenAmount } : {}),
    contractInstance: {
      address: record.contractAddress,
      contractId: record.contractId,
      groupIndex: record.groupIndex,
    },
  };
  const out = list.length === 1 && !Array.isArray(parsed) ? list[0] : list;
  // Byte for byte what the CLI's Deployments.saveToFile writes (no newline at the end), so a CLI run that
  // changes nothing leaves the file as it is.
  return { text: JSON.stringify(out, null, 2), name };
}

/** Same lockup script (an address can be spelled one way only, but compare bytes to be sure). */
export function sameAddress(a: string, b: string): boolean {
  try {
    return equalBytes(lockupScriptFromAddress(a), lockupScriptFromAddress(b));
  } catch {
    return false;
  }
}
