/**
 * What an `alephium.config.{ts,js,mjs}` says about the project, read without executing it: a cloned
 * repository's config is code, and running it would run the repository. The text is tokenized once
 * (linear time, no backtracking), the object literal that holds the CLI's keys is found, and only the
 * values written as literals are taken: `nodeUrl: process.env.NODE_URL` is reported as not read rather
 * than guessed. Keys that hold secrets (`privateKeys`, `mnemonic`, `nodeApiKey`) are never read at all.
 *
 * Defaults are the CLI's (`@alephium/cli` `DEFAULT_CONFIGURATION_VALUES`): `contracts`, `artifacts`,
 * `deployments`, and network ids devnet 4, testnet 1, mainnet 0.
 */

/** The networks a CLI project names, in the CLI's order. */
export const PROJECT_NETWORKS = ['devnet', 'testnet', 'mainnet'] as const;
export type ProjectNetwork = (typeof PROJECT_NETWORKS)[number];

const DEFAULT_NETWORK_IDS: Readonly<Record<ProjectNetwork, number>> = { devnet: 4, testnet: 1, mainnet: 0 };
export const DEFAULT_PROJECT_DIRS = {
  sourceDir: 'contracts',
  artifactDir: 'artifacts',
  deploymentsDir: 'deployments',
} as const;
type DirKey = keyof typeof DEFAULT_PROJECT_DIRS;

/** The largest config read; real ones are under 5 KB. */
export const MAX_PROJECT_CONFIG_CHARS = 256 * 1024;
/** The longest literal value kept (a URL or a folder). */
const MAX_VALUE_CHARS = 500;
/** The longest folder name used in a search pattern. */
const MAX_DIR_CHARS = 200;

export interface ProjectNetworkConfig {
  /** The node URL when written as a literal `http(s)` URL. */
  readonly nodeUrl?: string;
  /** The network id: the literal when written, else the CLI's default for the network's name. */
  readonly networkId: number;
}

export interface ProjectConfig {
  readonly sourceDir: string;
  readonly artifactDir: string;
  readonly deploymentsDir: string;
  /** The networks the config names (with their literal fields), by name. */
  readonly networks: Readonly<Partial<Record<ProjectNetwork, ProjectNetworkConfig>>>;
  readonly defaultNetwork?: ProjectNetwork;
  /** Each value that was written but not used, and why (for the log). */
  readonly problems: readonly string[];
}

type Token =
  | { kind: 'punct'; text: string }
  | { kind: 'word'; text: string }
  | { kind: 'string'; text: string; plain: boolean }
  | { kind: 'number'; text: string };

/** Splits the text into tokens in one pass; comments and whitespace are dropped. */
export function tokenizeConfig(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else if (c === '/' && text[i + 1] === '/') i = skipUntil(text, i + 2, '\n');
    else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"' || c === "'" || c === '`') {
      const { value, plain, next } = readString(text, i);
      tokens.push({ kind: 'string', text: value, plain });
      i = next;
    } else if (isWordChar(c)) {
      const start = i;
      while (i < n && isWordChar(text[i] as string)) i++;
      const word = text.slice(start, i);
      tokens.push(isDigit(word[0] as string) ? { kind: 'number', text: word } : { kind: 'word', text: word });
    } else {
      tokens.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return tokens;
}

function skipUntil(text: string, from: number, stop: string): number {
  const end = text.indexOf(stop, from);
  return end < 0 ? text.length : end;
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function isWordChar(c: string): boolean {
  return (
    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c === '_' || c === '$' || c === '.'
  );
}

/** A string literal from its opening quote; a template with `${` is not plain (its value is not known). */
function readString(text: string, start: number): { value: string; plain: boolean; next: number } {
  const quote = text[start];
  let i = start + 1;
  let value = '';
  let plain = true;
  while (i < text.length && text[i] !== quote) {
    const c = text[i] as string;
    if (c === '\\') {
      value += text[i + 1] ?? '';
      i += 2;
      continue;
    }
    if (quote === '`' && c === '$' && text[i + 1] === '{') plain = false;
    if (quote !== '`' && c === '\n') break;
    if (value.length <= MAX_VALUE_CHARS) value += c;
    i++;
  }
  if (value.length > MAX_VALUE_CHARS) plain = false;
  return { value, plain, next: i + 1 };
}

/** A literal value at a key path of the config object, or `undefined` when written otherwise. */
interface Entry {
  readonly path: readonly string[];
  readonly literal?: string | number;
}

const CONFIG_KEYS = new Set(['sourceDir', 'artifactDir', 'deploymentsDir', 'networks', 'defaultNetwork']);
/** How deep nested objects are walked: the CLI's keys are at most three deep (`networks.devnet.nodeUrl`). */
const MAX_DEPTH = 4;
const SECRET_KEYS = new Set(['privateKeys', 'mnemonic', 'nodeApiKey', 'apiKey']);

/**
 * The keys of every top-level object literal, with their literal values, and the one that holds the
 * CLI's keys. Nested objects are walked for their paths; arrays and calls are skipped by bracket depth.
 */
function configEntries(tokens: readonly Token[]): Entry[] {
  let best: Entry[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind !== 'punct' || t.text !== '{') continue;
    const { entries, next } = readObject(tokens, i, []);
    if (entries.some((e) => e.path.length === 1 && CONFIG_KEYS.has(e.path[0] as string))) {
      best = entries;
      break;
    }
    i = next - 1;
  }
  return best;
}

function readObject(
  tokens: readonly Token[],
  open: number,
  path: readonly string[],
): { entries: Entry[]; next: number } {
  const entries: Entry[] = [];
  let i = open + 1;
  while (i < tokens.length) {
    const t = tokens[i] as Token;
    if (t.kind === 'punct' && t.text === '}') return { entries, next: i + 1 };
    const colon = tokens[i + 1];
    const isKey = (t.kind === 'word' || t.kind === 'string') && colon?.kind === 'punct' && colon.text === ':';
    if (!isKey) {
      // Always one token on at least, so text that is not an object literal ends the walk.
      i = Math.max(skipValue(tokens, i), i + 1);
      continue;
    }
    const key = t.text;
    const keyPath = [...path, key];
    const value = tokens[i + 2];
    if (SECRET_KEYS.has(key)) {
      i = skipValue(tokens, i + 2);
    } else if (value?.kind === 'punct' && value.text === '{' && keyPath.length < MAX_DEPTH) {
      const inner = readObject(tokens, i + 2, keyPath);
      entries.push({ path: keyPath }, ...inner.entries);
      i = inner.next;
    } else {
      const after = tokens[i + 3];
      const ends =
        after === undefined || (after.kind === 'punct' && (after.text === ',' || after.text === '}'));
      const literal =
        ends && value?.kind === 'string' && value.plain
          ? value.text
          : ends && value?.kind === 'number' && /^\d{1,6}$/.test(value.text)
            ? Number(value.text)
            : undefined;
      entries.push({ path: keyPath, literal });
      i = skipValue(tokens, i + 2);
    }
  }
  return { entries, next: i };
}

/** The index after one value (up to the `,` or `}` that ends it at this depth). */
function skipValue(tokens: readonly Token[], from: number): number {
  let depth = 0;
  let i = from;
  for (; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind !== 'punct') continue;
    if (t.text === '{' || t.text === '[' || t.text === '(') depth++;
    else if (t.text === '}' || t.text === ']' || t.text === ')') {
      if (depth === 0) return i;
      depth--;
    } else if (t.text === ',' && depth === 0) return i + 1;
  }
  return i;
}

/**
 * Why `dir` (a folder as written in a config) cannot be used, or undefined when it can: a relative
 * folder of plain segments (letters, digits, `_`, `.`, `-`) separated by `/`, with an optional `./`.
 * Glob syntax, `..`, absolute paths and backslashes are refused rather than escaped: the folder goes
 * into a search pattern and names where the deployments file is written.
 */
export function projectDirProblem(dir: string): string | undefined {
  if (dir.length === 0) return 'it is empty';
  if (dir.length > MAX_DIR_CHARS) return `it is longer than ${MAX_DIR_CHARS} characters`;
  if (dir.startsWith('/')) return 'it is an absolute path';
  for (const segment of plainProjectDir(dir).split('/')) {
    if (segment === '..' || segment === '.' || segment === '')
      return 'it leaves or repeats a folder (., .., //)';
    if (![...segment].every(isFolderChar))
      return 'it has characters other than letters, digits, _, ., - and / (glob syntax is not taken)';
  }
  return undefined;
}

function isFolderChar(c: string): boolean {
  return c === '-' || (c !== '$' && isWordChar(c));
}

/** `./deploy/` → `deploy`: a folder as written, without its leading `./` and trailing `/`. */
export function plainProjectDir(dir: string): string {
  let d = dir.startsWith('./') ? dir.slice(2) : dir;
  while (d.endsWith('/')) d = d.slice(0, -1);
  return d;
}

function isProjectNetwork(name: string): name is ProjectNetwork {
  return (PROJECT_NETWORKS as readonly string[]).includes(name);
}

/** A node URL as written: an `http(s)` URL without credentials, else a problem. */
function nodeUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not a URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'it is not an http(s) URL';
  if (parsed.username !== '' || parsed.password !== '') return 'it carries credentials';
  return undefined;
}

/** Reads an `alephium.config.*` text; see the module comment. Never throws. */
export function readProjectConfig(text: string): ProjectConfig {
  const problems: string[] = [];
  if (text.length > MAX_PROJECT_CONFIG_CHARS) {
    problems.push(`the config is over ${MAX_PROJECT_CONFIG_CHARS / 1024} KB; the CLI's defaults are used`);
    return { ...DEFAULT_PROJECT_DIRS, networks: {}, problems };
  }
  const entries = configEntries(tokenizeConfig(text));
  const at = (...path: string[]) => entries.find((e) => e.path.join('.') === path.join('.'));
  const dirs = { ...DEFAULT_PROJECT_DIRS } as Record<DirKey, string>;
  for (const key of Object.keys(DEFAULT_PROJECT_DIRS) as DirKey[]) {
    const entry = at(key);
    if (entry === undefined) continue;
    if (typeof entry.literal !== 'string') {
      problems.push(`${key} is not a plain string; the CLI's default "${dirs[key]}" is used`);
      continue;
    }
    const problem = projectDirProblem(entry.literal);
    if (problem) problems.push(`${key} "${entry.literal.slice(0, 80)}" is not used: ${problem}`);
    else dirs[key] = plainProjectDir(entry.literal);
  }
  const networks: Partial<Record<ProjectNetwork, ProjectNetworkConfig>> = {};
  for (const name of PROJECT_NETWORKS) {
    if (at('networks', name) === undefined) continue;
    networks[name] = readNetwork(
      name,
      at('networks', name, 'nodeUrl'),
      at('networks', name, 'networkId'),
      problems,
    );
  }
  const named = at('defaultNetwork')?.literal;
  const defaultNetwork = typeof named === 'string' && isProjectNetwork(named) ? named : undefined;
  return { ...dirs, networks, ...(defaultNetwork ? { defaultNetwork } : {}), problems };
}

function readNetwork(
  name: ProjectNetwork,
  url: Entry | undefined,
  id: Entry | undefined,
  problems: string[],
): ProjectNetworkConfig {
  let nodeUrl: string | undefined;
  if (url !== undefined) {
    const problem =
      typeof url.literal === 'string' ? nodeUrlProblem(url.literal) : 'it is not a plain string';
    if (problem) problems.push(`networks.${name}.nodeUrl is not used: ${problem}`);
    else nodeUrl = url.literal as string;
  }
  let networkId = DEFAULT_NETWORK_IDS[name];
  if (id !== undefined) {
    if (typeof id.literal === 'number' && id.literal <= 255) networkId = id.literal;
    else problems.push(`networks.${name}.networkId is not a number from 0 to 255; ${networkId} is used`);
  }
  return { ...(nodeUrl ? { nodeUrl } : {}), networkId };
}

/**
 * The search pattern of the files the extension reads from the workspace's projects: compiled artifacts,
 * `.project.json` and deployments files, under the CLI's default folders and the ones each config names
 * (each already checked by {@link projectDirProblem}, so no glob syntax reaches the pattern).
 */
export function projectFilesGlob(configs: readonly ProjectConfig[]): string {
  const artifactDirs = new Set([DEFAULT_PROJECT_DIRS.artifactDir, ...configs.map((c) => c.artifactDir)]);
  const deploymentsDirs = new Set([
    DEFAULT_PROJECT_DIRS.deploymentsDir,
    ...configs.map((c) => c.deploymentsDir),
  ]);
  const parts = [
    ...[...artifactDirs].flatMap((dir) => [
      `${dir}/**/*.ral.json`,
      `${dir}/.project.json`,
      `${dir}/**/.project.json`,
      `${dir}/.deployments.*.json`,
    ]),
    ...[...deploymentsDirs].map((dir) => `${dir}/.deployments.*.json`),
  ];
  return `**/{${parts.join(',')}}`;
}
