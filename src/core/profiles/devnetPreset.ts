/**
 * The "Local devnet" preset of Add Profile: a `node` profile on network `devnet` at the CLI's and the
 * full node's default address, or at the `networks.devnet.nodeUrl` a workspace's `alephium.config.*`
 * names, when that URL is one a profile may have (core/profiles/profile.ts `baseUrlProblem`: https, or
 * plain http only to this machine).
 */
import { DEVNET_ID, networkMismatch } from '../node/networkCheck';
import type { ProjectConfig } from '../artifacts/projectConfig';
import { baseUrlProblem, isLoopbackHost } from './profile';

/** Where `@alephium/cli`'s devnet (and a full node's default REST port) answers. */
export const DEFAULT_DEVNET_URL = 'http://127.0.0.1:22973';
/** The network name a devnet profile gets: it names the deployments file, as the CLI does. */
export const DEVNET_NETWORK = 'devnet';

export interface DevnetPreset {
  readonly kind: 'node';
  readonly network: typeof DEVNET_NETWORK;
  readonly baseUrl: string;
  /** The network id the node is expected on (the config's, else 4); the connect check compares it. */
  readonly networkId: number;
  /** Where the URL comes from, for the picker's line: the default or a workspace config. */
  readonly from: 'default' | 'workspace';
  /** A config URL that was not taken, and why (for the log). */
  readonly skipped?: string;
}

/**
 * The preset from the workspace's project configs (in the order given): the first devnet `nodeUrl`
 * a profile may use; a URL it may not use is reported in `skipped` and the default is offered.
 */
export function devnetPreset(configs: readonly Pick<ProjectConfig, 'networks'>[]): DevnetPreset {
  let skipped: string | undefined;
  for (const config of configs) {
    const devnet = config.networks.devnet;
    if (devnet?.nodeUrl === undefined) continue;
    const url = withoutTrailingSlashes(devnet.nodeUrl);
    const problem =
      baseUrlProblem(url) ??
      (networkMismatch(DEVNET_NETWORK, devnet.networkId)
        ? `its networkId ${devnet.networkId} is mainnet's or testnet's`
        : undefined);
    if (problem) {
      skipped ??= `the project's devnet nodeUrl is not offered: ${problem}`;
      continue;
    }
    return {
      kind: 'node',
      network: DEVNET_NETWORK,
      baseUrl: url,
      networkId: devnet.networkId,
      from: 'workspace',
    };
  }
  return {
    kind: 'node',
    network: DEVNET_NETWORK,
    baseUrl: DEFAULT_DEVNET_URL,
    networkId: DEVNET_ID,
    from: 'default',
    ...(skipped ? { skipped } : {}),
  };
}

function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}

/** The picker's words: "Local devnet (http://127.0.0.1:22973, network id 4)". */
export function devnetPresetLabel(preset: DevnetPreset): string {
  return `Local devnet (${preset.baseUrl}, network id ${preset.networkId})`;
}

/** What VS Code's `env.remoteName` names, as people say it (a resolver's own name is left unsaid). */
const REMOTE_NAMES: Readonly<Record<string, string>> = {
  'ssh-remote': 'SSH',
  wsl: 'WSL',
  'dev-container': 'Dev Container',
  'attached-container': 'Dev Container',
  codespaces: 'Codespaces',
  tunnel: 'Remote Tunnel',
};

/**
 * The picker's line under the preset. In a remote window (SSH, WSL, a container, Codespaces) the
 * extension runs where the workspace is (`extensionKind: workspace`), so a loopback address is that
 * machine's, not the one in front of the person: the line says so.
 */
export function devnetPresetDescription(preset: DevnetPreset, remoteName: string | undefined): string {
  const where = remoteName && isOnThisMachine(preset.baseUrl) ? onWorkspaceMachine(remoteName) : '';
  return preset.from === 'workspace'
    ? `from this workspace's alephium.config${where ? `, ${where}` : ''}: a node profile, no more steps`
    : `a node profile for @alephium/cli devnet${where ? ` ${where}` : ''}: no more steps`;
}

function onWorkspaceMachine(remoteName: string): string {
  const known = Object.hasOwn(REMOTE_NAMES, remoteName) ? REMOTE_NAMES[remoteName] : undefined;
  return `on the machine where the workspace runs${known ? ` (${known})` : ''}`;
}

function isOnThisMachine(baseUrl: string): boolean {
  try {
    return isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}
