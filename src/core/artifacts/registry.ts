/**
 * Everything the workspace's artifacts and deployments files say, indexed for the watched-contracts
 * view: artifact by name and by code hash, a contract address to its deployment and artifact, and the
 * drift check that tells whether the artifact still describes the deployed code.
 *
 * Built from (path, text) pairs so the glue can feed it from `workspace.fs` and rebuild it on change. A
 * broken file is recorded in `problems` and skipped: one bad artifact must not hide the others.
 */
import {
  parseArtifactText,
  type ContractArtifact,
  type ProjectFile,
  type ScriptArtifact,
  type ConstantsFile,
} from './artifact';
import {
  isDeploymentsPath,
  parseDeploymentsText,
  type DeployedContract,
  type Deployments,
} from './deployments';
import { ArtifactError } from './errors';
import { buildDebugBytecode } from '../bytecode/debugPatch';
import { bytesToHex, hexToBytes } from '../protocol/hex';
import { blake2b256 } from '../protocol/hash';
import type { StructSig } from './vals';

export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

export type DriftStatus = 'match' | 'drift' | 'unknown';

export interface DriftCheck {
  readonly status: DriftStatus;
  /** One sentence for a tooltip or a warning line. */
  readonly message: string;
  /** An artifact whose code hash does match, when the checked one drifted. */
  readonly matchingArtifact?: ContractArtifact;
  /** The match is with the debug build recorded in `.project.json` (devnets deploy debug bytecode). */
  readonly debugBuild?: boolean;
}

export interface AddressMatch {
  readonly deployment: DeployedContract | undefined;
  readonly network: string | undefined;
  readonly artifact: ContractArtifact | undefined;
}

export interface ResolvedContract extends AddressMatch {
  readonly drift: DriftCheck;
}

function short(hash: string): string {
  return `${hash.slice(0, 8)}…`;
}

export class ArtifactRegistry {
  readonly contracts: readonly ContractArtifact[];
  readonly scripts: readonly ScriptArtifact[];
  readonly structs: ReadonlyMap<string, StructSig>;
  readonly constants: ConstantsFile | undefined;
  readonly deploymentFiles: readonly Deployments[];
  /** Files that could not be used, with errors naming file and field. */
  readonly problems: readonly ArtifactError[];

  private readonly byNameMap = new Map<string, ContractArtifact>();
  private readonly byHashMap = new Map<string, { artifact: ContractArtifact; debug: boolean }>();
  private readonly debugPatches = new Map<ContractArtifact, { patch: string; codeHash: string }>();

  private constructor(parts: {
    contracts: ContractArtifact[];
    scripts: ScriptArtifact[];
    structs: Map<string, StructSig>;
    constants: ConstantsFile | undefined;
    projects: ProjectFile[];
    deployments: Deployments[];
    problems: ArtifactError[];
  }) {
    const problems = parts.problems;
    for (const a of parts.contracts) {
      const existing = this.byNameMap.get(a.name);
      if (existing) {
        // Two artifacts with one name (a copied folder, a stale build dir): keep the first and say so.
        problems.push(
          new ArtifactError(
            `${a.file ?? a.name}: contract name ${a.name} is also defined in ${existing.file ?? '?'}, which is used`,
            a.file,
            'name',
          ),
        );
        continue;
      }
      this.byNameMap.set(a.name, a);
      this.byHashMap.set(a.codeHash, { artifact: a, debug: false });
    }
    // Devnets run the debug build, whose code hash is only in `.project.json`; without it every devnet
    // contract with a Debug event would look drifted.
    for (const p of parts.projects) {
      for (const [name, info] of p.infos) {
        const a = this.byNameMap.get(name);
        if (a && info.codeHashDebug && !this.byHashMap.has(info.codeHashDebug)) {
          this.byHashMap.set(info.codeHashDebug, { artifact: a, debug: true });
          if (info.bytecodeDebugPatch !== undefined)
            this.debugPatches.set(a, { patch: info.bytecodeDebugPatch, codeHash: info.codeHashDebug });
        }
      }
    }
    this.contracts = [...this.byNameMap.values()];
    this.scripts = parts.scripts;
    this.structs = parts.structs;
    this.constants = parts.constants;
    this.deploymentFiles = parts.deployments;
    this.problems = problems;
  }

  static fromFiles(files: Iterable<SourceFile>): ArtifactRegistry {
    const parts = {
      contracts: [] as ContractArtifact[],
      scripts: [] as ScriptArtifact[],
      structs: new Map<string, StructSig>(),
      constants: undefined as ConstantsFile | undefined,
      projects: [] as ProjectFile[],
      deployments: [] as Deployments[],
      problems: [] as ArtifactError[],
    };
    // Sorted so that "first wins" on duplicates does not depend on directory listing order.
    const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const f of sorted) {
      try {
        if (isDeploymentsPath(f.path)) {
          const deployments = parseDeploymentsText(f.text, f.path);
          // The file's good entries are kept; each bad one is a problem of its own, at its line.
          parts.deployments.push(deployments);
          parts.problems.push(...deployments.problems);
          continue;
        }
        if (!f.path.endsWith('.ral.json') && !f.path.endsWith('.project.json')) continue;
        const parsed = parseArtifactText(f.text, f.path);
        switch (parsed.kind) {
          case 'contract':
            parts.contracts.push(parsed);
            break;
          case 'script':
            parts.scripts.push(parsed);
            break;
          case 'structs':
            for (const s of parsed.structs) parts.structs.set(s.name, s);
            break;
          case 'constants':
            parts.constants = parsed;
            break;
          case 'project':
            parts.projects.push(parsed);
            break;
        }
      } catch (e) {
        if (!(e instanceof ArtifactError)) throw e;
        parts.problems.push(e);
      }
    }
    return new ArtifactRegistry(parts);
  }

  byName(name: string): ContractArtifact | undefined {
    return this.byNameMap.get(name);
  }

  byCodeHash(codeHash: string): ContractArtifact | undefined {
    return this.byHashMap.get(codeHash.toLowerCase())?.artifact;
  }

  /** Every code hash that is this artifact's code: its own, and its debug build's when `.project.json` has it. */
  codeHashesOf(artifact: ContractArtifact): string[] {
    return [...this.byHashMap].filter(([, v]) => v.artifact === artifact).map(([h]) => h);
  }

  /**
   * The debug build of `artifact`, as `@alephium/cli` deploys it on a devnet: its release bytecode with
   * the `.project.json` patch applied, and only when that code hashes to the `codeHashDebug` the
   * compiler wrote beside the patch (else the patch is stale or altered, and undefined is returned).
   */
  debugBuildOf(
    artifact: ContractArtifact,
  ): { readonly bytecode: string; readonly codeHash: string } | undefined {
    const entry = this.debugPatches.get(artifact);
    if (entry === undefined) return undefined;
    try {
      const bytecode = buildDebugBytecode(artifact.bytecode, entry.patch);
      return bytesToHex(blake2b256(hexToBytes(bytecode))) === entry.codeHash
        ? { bytecode, codeHash: entry.codeHash }
        : undefined;
    } catch {
      return undefined;
    }
  }

  /** Deployed contracts, of one network or of all files. */
  deployments(network?: string): DeployedContract[] {
    return this.deploymentFiles
      .filter((d) => network === undefined || d.network === network)
      .flatMap((d) => d.contracts);
  }

  /**
   * The deployment that created `address` and its artifact. Without a deployment entry the address is
   * unknown here; `resolve` can still match by the on-chain code hash.
   */
  matchAddress(address: string, network?: string): AddressMatch | undefined {
    for (const d of this.deploymentFiles) {
      if (network !== undefined && d.network !== network) continue;
      const deployment = d.contracts.find((c) => c.address === address);
      if (deployment) {
        return { deployment, network: d.network, artifact: this.byName(deployment.artifactName) };
      }
    }
    return undefined;
  }

  /** Does `artifact` describe code with this on-chain hash? */
  checkDrift(artifact: ContractArtifact | undefined, onChainCodeHash: string | undefined): DriftCheck {
    if (!artifact) {
      const other = onChainCodeHash ? this.byCodeHash(onChainCodeHash) : undefined;
      return other
        ? {
            status: 'unknown',
            message: `no artifact was chosen; the code matches ${other.name}`,
            matchingArtifact: other,
          }
        : { status: 'unknown', message: 'no artifact describes this contract; values are shown raw' };
    }
    if (!onChainCodeHash) {
      return { status: 'unknown', message: `code hash not checked yet against ${artifact.name}` };
    }
    const hash = onChainCodeHash.toLowerCase();
    if (hash === artifact.codeHash) {
      return { status: 'match', message: `the deployed code matches ${artifact.name}` };
    }
    const known = this.byHashMap.get(hash);
    if (known?.artifact === artifact && known.debug) {
      return {
        status: 'match',
        message: `the deployed code matches the debug build of ${artifact.name}`,
        debugBuild: true,
      };
    }
    const hint = known
      ? ` It matches ${known.artifact.name} instead: check the address or the deployments file.`
      : ' Recompile, or redeploy, or check the address: decoded names may be wrong.';
    return {
      status: 'drift',
      message:
        `the deployed code (${short(hash)}) differs from artifact ${artifact.name} (${short(artifact.codeHash)}).` +
        hint,
      ...(known ? { matchingArtifact: known.artifact } : {}),
    };
  }

  /**
   * Artifact and drift for a watched address: the deployments file first (it knows which artifact was
   * deployed there even after the artifact changed, which is exactly when drift matters), then the
   * on-chain code hash.
   */
  resolve(address: string, onChainCodeHash?: string, network?: string): ResolvedContract {
    const match = this.matchAddress(address, network);
    const artifact = match?.artifact ?? (onChainCodeHash ? this.byCodeHash(onChainCodeHash) : undefined);
    return {
      deployment: match?.deployment,
      network: match?.network,
      artifact,
      drift: this.checkDrift(artifact, onChainCodeHash),
    };
  }
}
