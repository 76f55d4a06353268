/**
 * `deployments/.deployments.<network>.json` written by the Alephium CLI: one object, or an array with one
 * object per deployer (one per group). Each maps a deployment name (the contract name, or `Name:tag` for
 * repeated deployments) to what was deployed. We keep only what watching needs: the address, the code
 * hash and the group, and cross-check the address against the contract id so a hand-edited file cannot
 * silently point the watcher at another contract.
 */
// The namespace import lets esbuild leave out zod's locales (about 360 KB of the bundle).
import * as z from 'zod';
import { addressFromContractId, groupOfAddress, isValidAddress } from '../protocol';
import { plainText } from '../text/inert';
import { MAX_NAME_CHARS, parseJsonText, ralphNameProblem } from './artifact';
import { ArtifactError, type TextPosition } from './errors';

/**
 * A deployments file larger than this is not read for an update. Each entry holds its deploy transaction
 * (a 32 KB contract is 64 KB of hex), so this leaves room for hundreds of deploys, but not for any file.
 * It is here, with the parser, rather than beside the writer: the reader of the workspace needs only it.
 */
export const DEPLOYMENTS_FILE_READ_LIMIT = 16 * 1024 * 1024;

const hash32 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'expected a 32-byte hex string');

const DeployedContractSchema = z.looseObject({
  txId: hash32,
  codeHash: hash32,
  contractInstance: z.looseObject({
    address: z.string().refine(isValidAddress, 'not a valid base58 address'),
    contractId: hash32,
    groupIndex: z.number().int().min(0).max(3),
  }),
  blockHash: z.string().optional(),
});

const DeploymentSchema = z.looseObject({
  deployerAddress: z.string().refine(isValidAddress, 'not a valid base58 address'),
  contracts: z.record(z.string(), DeployedContractSchema).default({}),
  scripts: z.record(z.string(), z.unknown()).default({}),
  migrations: z.record(z.string(), z.unknown()).default({}),
});

/** The file as it must be: what the editor validates it against (scripts/generateSchemas.ts). */
const DeploymentsFileSchema = z.union([DeploymentSchema, z.array(DeploymentSchema)]);

/**
 * The file as it is read: each `contracts` entry is checked on its own (parseEntry), so one bad entry is
 * one lost entry, not a lost file.
 */
const DeployerSchema = DeploymentSchema.extend({ contracts: z.record(z.string(), z.unknown()).default({}) });
const DeployersSchema = z.union([DeployerSchema, z.array(DeployerSchema)]);

export interface DeployedContract {
  /** The key in the file: the contract name or `Name:tag`. */
  readonly name: string;
  /** The artifact it was compiled from: the name without a `:tag`. */
  readonly artifactName: string;
  readonly address: string;
  readonly contractId: string;
  readonly group: number;
  /**
   * Lowercase. What the deploy tool wrote: `@alephium/cli` hashes the deploy bytecode together with the
   * initial fields, so this is NOT the on-chain code hash and is never compared with it. Drift is decided
   * from the code hash the node reports in the contract's state (`ArtifactRegistry.checkDrift`).
   */
  readonly codeHash: string;
  readonly txId: string;
  readonly deployerAddress: string;
}

export interface Deployments {
  readonly file: string | undefined;
  /** From the file name (`.deployments.testnet.json` → `testnet`), when it follows the convention. */
  readonly network: string | undefined;
  readonly deployers: readonly string[];
  readonly contracts: readonly DeployedContract[];
  /**
   * Entries left out, one problem each (a key that is not `Name` or `Name:tag`, a malformed entry, an
   * address that is not its contract id's): the file's other entries are kept. Each has its position in
   * the file when the text was parsed, for the Problems view.
   */
  readonly problems: readonly ArtifactError[];
}

/** A deployment's tag (`Counter:2`, `Token:v2`): the CLI's task tag, letters, digits, `_`, `.` and `-`. */
const DEPLOYMENT_TAG = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Why `key` cannot be a deployment's key, or undefined when it can: the contract's name (a Ralph
 * identifier) or `Name:tag`. The key is shown in views and notifications and names the artifact.
 */
export function deploymentKeyProblem(key: string): string | undefined {
  const colon = key.indexOf(':');
  const name = colon < 0 ? key : key.slice(0, colon);
  const tag = colon < 0 ? undefined : key.slice(colon + 1);
  if (ralphNameProblem(name) === undefined && (tag === undefined || DEPLOYMENT_TAG.test(tag)))
    return undefined;
  return (
    `${JSON.stringify(plainText(key, 40))} is not a deployment key: Name or Name:tag, the name a Ralph identifier of at most ` +
    `${MAX_NAME_CHARS} characters, the tag 1 to 64 letters, digits, _, . or -`
  );
}

const FILE_RE = /(?:^|[\\/])\.deployments\.([^.\\/]+)\.json$/;

/** `devnet` for `deployments/.deployments.devnet.json`; undefined for any other name. */
export function networkOfDeploymentsPath(path: string): string | undefined {
  return FILE_RE.exec(path)?.[1];
}

export function isDeploymentsPath(path: string): boolean {
  return FILE_RE.test(path);
}

export function parseDeployments(json: unknown, file?: string, text?: string): Deployments {
  const shown = file?.split(/[\\/]/).pop() ?? 'deployments file';
  const r = DeployersSchema.safeParse(json);
  if (!r.success) {
    // A union reports its branches' issues; the object branch is the one people usually mean.
    const branch = Array.isArray(json) ? z.array(DeployerSchema) : DeployerSchema;
    const issue =
      branch.safeParse(json).error?.issues[0] ??
      r.error.issues[0] ??
      DeploymentsFileSchema.safeParse(json).error?.issues[0];
    const field = issue?.path.map(String).join('.') || undefined;
    throw new ArtifactError(`${shown}: ${field ?? '(root)'}: ${issue?.message ?? 'invalid'}`, file, field);
  }
  const list = Array.isArray(r.data) ? r.data : [r.data];
  const contracts: DeployedContract[] = [];
  const problems: ArtifactError[] = [];
  const keys = text !== undefined ? new KeyLocator(text) : undefined;
  list.forEach((d, di) => {
    const prefix = Array.isArray(r.data) ? `${di}.` : '';
    for (const [name, entry] of Object.entries(d.contracts)) {
      // Located for every entry, bad or good, so that a repeated key is found at its own occurrence.
      const position = keys?.next(name);
      const parsed = parseEntry(name, entry, d.deployerAddress, `${prefix}contracts`);
      if ('problem' in parsed) {
        problems.push(
          new ArtifactError(`${shown}: ${parsed.field}: ${parsed.problem}`, file, parsed.field, position),
        );
      } else contracts.push(parsed);
    }
  });
  return {
    file,
    network: file ? networkOfDeploymentsPath(file) : undefined,
    deployers: list.map((d) => d.deployerAddress),
    contracts,
    problems,
  };
}

/** One entry of `contracts`, or why it cannot be used and the field that says so. */
function parseEntry(
  name: string,
  entry: unknown,
  deployerAddress: string,
  where: string,
): DeployedContract | { readonly problem: string; readonly field: string } {
  const keyProblem = deploymentKeyProblem(name);
  if (keyProblem) return { problem: keyProblem, field: where };
  const field = `${where}.${name}`;
  const r = DeployedContractSchema.safeParse(entry);
  if (!r.success) {
    const issue = r.error.issues[0];
    const at = issue?.path.length ? `${field}.${issue.path.map(String).join('.')}` : field;
    return { problem: issue?.message ?? 'invalid', field: at };
  }
  const c = r.data;
  const { address, contractId, groupIndex } = c.contractInstance;
  if (addressFromContractId(contractId) !== address)
    return {
      problem: `address ${address} is not the address of contract id ${contractId}`,
      field: `${field}.contractInstance`,
    };
  if (groupOfAddress(address) !== groupIndex)
    return {
      problem: `${groupIndex}, but the address is in group ${groupOfAddress(address)}`,
      field: `${field}.contractInstance.groupIndex`,
    };
  return {
    name,
    artifactName: name.split(':')[0] as string,
    address,
    contractId: contractId.toLowerCase(),
    group: groupIndex,
    codeHash: c.codeHash.toLowerCase(),
    txId: c.txId.toLowerCase(),
    deployerAddress,
  };
}

/**
 * Finds the keys of `contracts` objects in a deployments file's text, in document order: the n-th
 * `next(key)` is the n-th place the key is written as an object key (`"key" :`) after the previous one
 * found. Each search starts where the last ended, so the whole file is scanned once (linear).
 */
class KeyLocator {
  private from = 0;
  private line = 0;
  private lineStart = 0;
  private scanned = 0;

  constructor(private readonly text: string) {}

  next(key: string): TextPosition | undefined {
    const quoted = JSON.stringify(key);
    let at = this.text.indexOf(quoted, this.from);
    while (at >= 0 && !/^\s*:/.test(this.text.slice(at + quoted.length, at + quoted.length + 64)))
      at = this.text.indexOf(quoted, at + 1);
    // Written with escapes JSON.stringify does not use: no position (the Problems entry goes to line 1).
    if (at < 0) return undefined;
    this.from = at + quoted.length;
    for (; this.scanned < at; this.scanned++) {
      if (this.text.charCodeAt(this.scanned) === 10) {
        this.line++;
        this.lineStart = this.scanned + 1;
      }
    }
    return { offset: at, line: this.line, column: at - this.lineStart, length: quoted.length };
  }
}

export function parseDeploymentsText(text: string, file?: string): Deployments {
  return parseDeployments(parseJsonText(text, file), file, text);
}
