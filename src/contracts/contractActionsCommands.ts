/**
 * The commands "Simulate Contract Method", "Execute Contract Method" and "Deploy Contract": prompts (or an
 * argument object), progress, the confirmation modal, tracking and the deployments file. Everything they
 * decide is in src/core/contracts/actions.ts; this file only asks, shows and writes.
 */
import * as vscode from 'vscode';
import {
  ArgumentError,
  STD_ID_FIELD,
  standardInterfaceField,
  type ArtifactRegistry,
  type ContractArtifact,
} from '../core/artifacts';

import { attoToAlph, decodeUnsignedTx, groupOfAddress, shortTxId } from '../core/protocol';
import type {
  BuiltScriptTx,
  DeploymentRecord,
  PreparedMethodCall,
  ScriptVerifier,
} from '../core/contracts/actions';
import { actionsEngine, type ActionsEngine } from '../platform/lazyEngine';
import { argumentHint, argumentProblem } from '../core/contracts/call';
import type {
  DeployRequest,
  DeployView,
  EventView,
  ExecuteRequest,
  ExecutionStatus,
  ExecutionView,
  MethodCallRequest,
  SimulationView,
} from '../core/contracts/actionViews';
import { inert } from '../core/text/inert';
import { scalarText } from '../core/util/guards';
import { showInfo, showWarning } from '../platform/notify';

import type { ConnectionManager } from '../platform/connection';
import { CommandIds } from '../constants';
import type { SecretStore } from '../platform/secrets';
import {
  networkPinFor,
  rethrowRefusal,
  signerAddressIfAny,
  signerContext,
  signingDeps,
  type SignerContext,
} from '../platform/signing';
import type { TrackedTransactions } from '../transactions';
import { registerCommands, runCommand, type CommandContext, type CommandTable } from '../platform/commands';
import { argString, argValue, askMethodCall, askText, pick } from '../platform/prompts';
import type { FailureReporter } from '../debugging';
import type { WorkspaceArtifacts } from './workspaceArtifacts';
import { watchedOrPick, type ContractsService } from './contractsService';
import type { ContractActions } from './panel/host';
import { writeDeploymentsEntry } from './deploymentsWriter';

export interface ContractActionsDeps extends CommandContext {
  readonly connection: ConnectionManager;
  readonly secrets: SecretStore;
  readonly artifacts: WorkspaceArtifacts;
  readonly store: TrackedTransactions;
  /** Resolves artifacts as the Watched Contracts view does, picks a contract, polls one ahead of its turn. */
  readonly contracts: ContractsService;
  /** Puts VM failures at their Ralph line (Problems view) and debug messages at their emit. */
  readonly failures?: Pick<FailureReporter, 'explain' | 'succeeded'>;
}

/** How long a command waits for its transaction to reach a block before returning 'submitted'. */
const WAIT_FOR_BLOCK_MS = 180_000;
/**
 * How long a deploy still not in a block when the command returns is followed in the background, so the
 * contract is written to the deployments file and watched once it is (the tracker ends sooner on failure).
 */
const LATE_DEPLOY_BOUND_MS = 6 * 3_600_000;

function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

function tokensOf(value: unknown): { id: string; amount: string }[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((t: unknown) => {
    const o = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>;
    return { id: scalarText(o.id) ?? '', amount: scalarText(o.amount) ?? '' };
  });
}

/** The engine's own verifier: the one whose verified transactions its signing path accepts. */
function verifierOf(engine: ActionsEngine): ScriptVerifier {
  return {
    verifyScriptTx: engine.verifyScriptTx,
    TransferVerificationError: engine.TransferVerificationError,
  };
}

/** The artifact that describes the contract, refusing drift (a method index of other code). */
async function contractArtifact(
  deps: ContractActionsDeps,
  address: string,
  args: unknown,
): Promise<{ artifact: ContractArtifact; registry: ArtifactRegistry }> {
  const registry = await deps.artifacts.registry();
  const resolved = await deps.contracts.resolve(address);
  const artifact = resolved.artifact;
  if (!artifact) {
    throw new Error(`No artifact in the workspace describes ${address}; add its .ral.json to call it.`);
  }
  if (resolved.drift.status === 'drift' && argValue(args, 'allowDrift') !== true) {
    throw new Error(
      `Not run: ${resolved.drift.message}. The method index comes from the artifact, so it could call another method.`,
    );
  }
  return { artifact, registry };
}

/** Fills what the argument object leaves out with prompts (palette use). */
async function methodRequest(
  deps: ContractActionsDeps,
  args: unknown,
  title: string,
): Promise<MethodCallRequest> {
  const address = argString(args, 'address') ?? (await watchedOrPick(deps.contracts, args, title)).address;
  const { artifact, registry } = await contractArtifact(deps, address, args);
  const { method, fn, methodGiven, inputs } = await askMethodCall(
    artifact,
    registry,
    args,
    `${title}: a method of ${artifact.name}`,
  );
  // An argument object naming the method is a complete request (keybindings, the panel, tests): only
  // what it cannot leave out (the parameters of a method that has some) is ever asked for.
  const interactive = !methodGiven;
  const alph =
    argString(args, 'alph') ??
    (interactive
      ? await askText({
          title: `${artifact.name}.${fn.name}: ALPH to approve (optional)`,
          prompt: 'ALPH the method may take from you, e.g. 1.5; leave empty for none',
        })
      : undefined);
  const tokens = tokensOf(argValue(args, 'tokens'));
  const gas = argValue(args, 'gasAmount');
  return {
    address,
    method,
    args: stringList(inputs) ?? [],
    ...(alph !== undefined && alph.trim() !== '' ? { alph } : {}),
    ...(tokens ? { tokens } : {}),
    ...(typeof gas === 'number' ? { gasAmount: gas } : {}),
  };
}

/** A dry run's outcome in the editor: a failure at the asserting line, debug messages at their emit. */
async function reportSimulation(
  deps: ContractActionsDeps,
  view: SimulationView,
  request: MethodCallRequest,
  artifact: ContractArtifact,
  origin: string,
): Promise<string | undefined> {
  if (!deps.failures) return undefined;
  const known = new Map([[request.address, artifact]]);
  if (view.ok) {
    await deps.failures.succeeded(view.debugMessages, view.method, known);
    return undefined;
  }
  const explained = await deps.failures.explain(
    view.error ?? '',
    { address: request.address, method: view.method, args: request.args ?? [], origin },
    known,
  );
  return explained.message;
}

/** What the method cost in a dry run that succeeded, for the gas lens and the Gas Report. */
function rememberGas(
  deps: ContractActionsDeps,
  artifact: ContractArtifact,
  prepared: PreparedMethodCall,
  view: SimulationView,
  via: 'simulate' | 'execute',
): void {
  if (view.gasUsed === undefined) return;
  deps.contracts.rememberGas({
    contract: artifact.name,
    method: prepared.fn.name,
    codeHash: artifact.codeHash,
    gasUsed: view.gasUsed,
    args: prepared.args,
    via,
  });
}

async function simulate(deps: ContractActionsDeps, args?: unknown): Promise<SimulationView> {
  const request = await methodRequest(deps, args, 'Simulate Contract Method');
  const { artifact, registry } = await contractArtifact(deps, request.address, args);
  // The signer is the dry run's caller when it could be the real one (same group); else it runs callerless.
  const signer = await signerAddressIfAny(deps.secrets);
  const signerAddress =
    signer !== undefined && groupOfAddress(signer) === groupOfAddress(request.address) ? signer : undefined;
  const prepared = (await actionsEngine()).prepareMethodCall(request, {
    artifact,
    registry,
    ...(signerAddress ? { signerAddress } : {}),
  });
  const client = deps.connection.requireClient();
  const lookup = await deps.contracts.artifactLookup([request.address]);
  const view = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Simulating ${artifact.name}.${prepared.fn.name}…`,
    },
    async () =>
      (await actionsEngine()).simulateMethodCall({ client, artifactOf: lookup, registry }, prepared),
  );
  for (const d of view.debugMessages) deps.log.info(`Debug > Contract @ ${d.contractAddress} - ${d.message}`);
  if (view.ok) rememberGas(deps, artifact, prepared, view, 'simulate');
  const explained = await reportSimulation(deps, view, request, artifact, 'simulate');
  deps.log.info(
    `Simulated ${artifact.name}.${prepared.fn.name}: ${view.ok ? `ok, gas ${view.gasUsed ?? '?'}, ${view.events.length} event(s)` : `failed: ${view.error ?? ''}`}`,
  );
  return explained ? { ...view, error: explained } : view;
}

function refused(deps: ContractActionsDeps, error: unknown): never {
  return rethrowRefusal(deps.log, error);
}

/**
 * Confirms, signs and submits through the one signing path (core/signing/signingPath.ts: the policy,
 * the modal, the key read only after the confirmation), then starts tracking.
 */
async function sendScript(
  deps: ContractActionsDeps,
  ctx: SignerContext,
  args: unknown,
  built: BuiltScriptTx,
  title: string,
  action: string,
  label: string,
) {
  const engine = await actionsEngine();
  const sent = await engine
    .confirmSignAndSubmit(
      { ...signingDeps(deps, ctx, args, action), client: ctx.client },
      built.verified,
      engine.scriptConfirmation(title, built.verified, built.lines, { profileNetwork: ctx.network }),
    )
    .catch((e: unknown) => refused(deps, e));
  deps.store.track(
    { txId: sent.txId, fromGroup: sent.fromGroup, toGroup: sent.toGroup, label },
    decodeUnsignedTx(sent.unsignedTx),
  );
  deps.log.info(
    `Submitted ${sent.txId}: ${label}${sent.recovered ? ' (submit answer lost; the node has it)' : ''}`,
  );
  return sent;
}

/** Resolves when the tracked tx is in a block (or failed, or the bound passes), reading the tracker's changes. */
function waitForBlock(
  deps: ContractActionsDeps,
  txId: string,
  boundMs = WAIT_FOR_BLOCK_MS,
): Promise<{ status: ExecutionStatus; blockHash?: string; reason?: string }> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const r = deps.store.record(txId);
      const state = r?.state;
      if (state?.kind === 'confirmed' || state?.kind === 'final') {
        resolve({ status: 'confirmed', blockHash: state.blockHash });
        return true;
      }
      if (r?.outcome?.kind === 'failed' || state?.kind === 'failed') {
        const reason =
          r?.outcome && 'reason' in r.outcome
            ? r.outcome.reason
            : state?.kind === 'failed'
              ? state.reason
              : '';
        resolve({ status: 'failed', reason });
        return true;
      }
      return false;
    };
    if (check()) return;
    const timer = setTimeout(() => {
      sub.dispose();
      resolve({ status: 'submitted' });
    }, boundMs);
    const sub = deps.store.onDidChange((changed) => {
      if ((changed === undefined || changed === txId) && check()) {
        clearTimeout(timer);
        sub.dispose();
      }
    });
  });
}

async function emittedEvents(
  deps: ContractActionsDeps,
  ctx: SignerContext,
  txId: string,
  registry: ArtifactRegistry,
): Promise<EventView[]> {
  try {
    const events = await ctx.client.getEventsByTxId(txId, { priority: 'user' });
    const lookup = await deps.contracts.artifactLookup(events.map((e) => e.contractAddress));
    return (await actionsEngine()).eventViews(events, lookup, registry);
  } catch (e) {
    deps.log.warn(`Events of ${txId} could not be read: ${String(e)}`);
    return [];
  }
}

async function execute(deps: ContractActionsDeps, args?: unknown): Promise<ExecutionView> {
  const request: ExecuteRequest = await methodRequest(deps, args, 'Execute Contract Method');
  const { artifact, registry } = await contractArtifact(deps, request.address, args);
  const ctx = await signerContext(deps);
  const prepared = (await actionsEngine()).prepareMethodCall(request, {
    artifact,
    registry,
    signerAddress: ctx.fromAddress,
  });
  const lookup = await deps.contracts.artifactLookup([request.address]);
  const what = `${artifact.name}.${prepared.fn.name}`;
  const { simulation, built } = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Execute ${what}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        progress.report({ message: 'Simulating first (nothing is signed)…' });
        const simulation = await (
          await actionsEngine()
        ).simulateMethodCall(
          { client: ctx.client, artifactOf: lookup, registry, signal: controller.signal },
          prepared,
        );
        if (!simulation.ok) return { simulation, built: undefined };
        progress.report({ message: 'Building on the gateway and verifying the bytes…' });
        const built = await (
          await actionsEngine()
        )
          .buildAndVerifyExecute(
            ctx.client,
            prepared,
            ctx.publicKey,
            simulation.gasUsed,
            await networkPinFor(ctx),
            verifierOf(await actionsEngine()),
            controller.signal,
          )
          .catch((e: unknown) => refused(deps, e));
        return { simulation, built };
      } finally {
        sub.dispose();
      }
    },
  );
  const explained = await reportSimulation(deps, simulation, request, artifact, 'execute');
  if (!built) {
    throw new Error(
      `${what} fails in simulation, so nothing was built or signed: ${explained ?? simulation.error ?? 'unknown error'}`,
    );
  }
  await sendScript(
    deps,
    ctx,
    args,
    built,
    `Execute ${what} on ${ctx.network}?`,
    'Sign and Execute',
    `Execute ${what}`,
  );
  // Signed and sent: the dry run's gas is what this execution cost the method.
  rememberGas(deps, artifact, prepared, simulation, 'execute');
  const txId = built.verified.txId;
  const verified = built.lines;
  if (argValue(args, 'waitForConfirmation') === false) {
    return {
      status: 'submitted',
      simulation,
      txId,
      gasAmount: built.verified.gasAmount,
      feeAlph: attoToAlph(built.verified.fee),
      verified,
    };
  }
  const reached = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Waiting for ${shortTxId(txId)} to reach a block` },
    () => waitForBlock(deps, txId),
  );
  const events = reached.status === 'confirmed' ? await emittedEvents(deps, ctx, txId, registry) : [];
  // The view should show what the user just caused without waiting for the contract's planned turn.
  if (reached.status === 'confirmed') {
    for (const address of new Set([request.address, ...events.map((e) => e.contractAddress)])) {
      deps.contracts.pollSoon(address);
    }
  }
  return {
    status: reached.status,
    simulation,
    txId,
    gasAmount: built.verified.gasAmount,
    feeAlph: attoToAlph(built.verified.fee),
    verified,
    events,
    ...(reached.reason ? { error: reached.reason } : {}),
  };
}

async function deployRequest(
  deps: ContractActionsDeps,
  args: unknown,
): Promise<{ request: DeployRequest; artifact: ContractArtifact; registry: ArtifactRegistry }> {
  const registry = await deps.artifacts.reload();
  const name = argString(args, 'artifact');
  let artifact: ContractArtifact | undefined;
  if (name) {
    artifact = registry.byName(name) ?? registry.contracts.find((c) => c.file?.endsWith(name));
    if (!artifact) throw new ArgumentError(`No contract artifact named ${name} in the workspace`, 'artifact');
  } else {
    if (registry.contracts.length === 0)
      throw new Error('No contract artifact (.ral.json) is in the workspace.');
    artifact = (
      await pick(
        registry.contracts.map((c) => ({
          label: c.name,
          description: vscode.workspace.asRelativePath(c.file ?? ''),
          artifact: c,
        })),
        { title: 'Deploy Contract: which artifact?' },
      )
    ).artifact;
  }
  const given = argValue(args, 'fields');
  const fields: Record<string, string> = {};
  const interactive = typeof given !== 'object' || given === null;
  if (!interactive) {
    for (const [k, v] of Object.entries(given as Record<string, unknown>)) {
      fields[k] = typeof v === 'string' ? v : JSON.stringify(v);
    }
  } else {
    const sig = artifact.fieldsSig;
    for (let i = 0; i < sig.names.length; i++) {
      const fieldName = sig.names[i] as string;
      const type = sig.types[i] as string;
      // The standard's id comes from the artifact (prepareDeploy fills it), as the SDK and the CLI do.
      if (fieldName === STD_ID_FIELD && standardInterfaceField(artifact) !== undefined) continue;
      fields[fieldName] = await askText({
        title: `Deploy ${artifact.name}: ${sig.isMutable[i] ? 'mut ' : ''}${fieldName} (${i + 1}/${sig.names.length})`,
        prompt: `${fieldName}: ${type}`,
        placeHolder: argumentHint(type),
        validate: (v) => argumentProblem(type, fieldName, v, registry),
      });
    }
  }
  const alph =
    argString(args, 'alph') ??
    (interactive
      ? await askText({
          title: `Deploy ${artifact.name}: initial ALPH`,
          // Empty takes the minimal deposit and records none, as a CLI deploy script without
          // initialAttoAlphAmount does (the CLI redeploys when the recorded amounts differ).
          prompt: 'ALPH the new contract holds; empty for the minimal deposit (0.1)',
          placeHolder: '0.1',
        })
      : undefined);
  const issueTokenAmount = argString(args, 'issueTokenAmount');
  const issueTokenTo = argString(args, 'issueTokenTo');
  const tokens = tokensOf(argValue(args, 'tokens'));
  const gas = argValue(args, 'gasAmount');
  return {
    artifact,
    registry,
    request: {
      artifact: artifact.name,
      fields,
      ...(alph !== undefined ? { alph } : {}),
      ...(tokens ? { tokens } : {}),
      ...(issueTokenAmount ? { issueTokenAmount } : {}),
      ...(issueTokenTo ? { issueTokenTo } : {}),
      ...(typeof gas === 'number' ? { gasAmount: gas } : {}),
    },
  };
}

/** `deployments/.deployments.<network>.json` of the project that holds the artifact (deploymentsWriter.ts). */
function writeDeployment(
  deps: ContractActionsDeps,
  artifact: ContractArtifact,
  network: string,
  record: DeploymentRecord,
): ReturnType<typeof writeDeploymentsEntry> {
  return writeDeploymentsEntry(deps.artifacts, artifact, network, async (existing) =>
    (await actionsEngine()).addDeployment(existing, record),
  );
}

async function deploy(deps: ContractActionsDeps, args?: unknown): Promise<DeployView> {
  const { request, artifact, registry } = await deployRequest(deps, args);
  const ctx = await signerContext(deps);
  // The network first: a devnet deploys the debug build (as the CLI does), mainnet and testnet never.
  const pin = await networkPinFor(ctx);
  const prepared = (await actionsEngine()).prepareDeploy(request, artifact, ctx.fromAddress, registry, {
    networkId: pin.expectedNetworkId,
  });
  if (prepared.codeNote !== undefined) deps.log.warn(prepared.codeNote);
  else if (prepared.codeBuild === 'debug')
    deps.log.info(`Deploying the debug build of ${artifact.name}: its emit Debug messages will be emitted`);
  const built = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Deploy ${artifact.name}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        progress.report({ message: 'Building on the gateway and verifying the deploy script…' });
        return await (
          await actionsEngine()
        )
          .buildAndVerifyDeploy(
            ctx.client,
            prepared,
            ctx.publicKey,
            pin,
            verifierOf(await actionsEngine()),
            controller.signal,
          )
          .catch((e: unknown) => refused(deps, e));
      } finally {
        sub.dispose();
      }
    },
  );
  const { signature } = await sendScript(
    deps,
    ctx,
    args,
    built,
    `Deploy ${artifact.name} on ${ctx.network}?`,
    'Sign and Deploy',
    `Deploy ${artifact.name}`,
  );
  const txId = built.verified.txId;
  const network = deps.connection.state.profile?.network ?? 'devnet';
  /** Writes the deployments file and watches the contract: once the deploy is in a block. */
  const record = async (blockHash: string | undefined): Promise<string> => {
    const written = await writeDeployment(
      deps,
      artifact,
      network,
      (await actionsEngine()).deploymentRecord(prepared, built, {
        name: artifact.name,
        signature,
        blockHash,
      }),
    ).catch((e: unknown) => {
      // On chain and paid for: whatever went wrong with the file, the user needs the address.
      throw new Error(
        `${artifact.name} is deployed at ${built.contractAddress} (tx ${txId}), but the deployments file was not updated: ${e instanceof Error ? e.message : String(e)}`,
      );
    });
    deps.log.info(
      `Deployed ${artifact.name} at ${built.contractAddress}; ${written.file} has it as ${written.name}`,
    );
    await vscode.commands.executeCommand(CommandIds.watchContract, {
      address: built.contractAddress,
      name: written.name,
    });
    void showInfo(
      inert`Deployed ${artifact.name} at ${built.contractAddress} (${written.name} in ${written.file}); it is now watched.`,
    );
    return written.file;
  };
  const reached =
    argValue(args, 'waitForConfirmation') === false
      ? { status: 'submitted' as const }
      : await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Window,
            title: `Waiting for ${shortTxId(txId)} to reach a block`,
          },
          () => waitForBlock(deps, txId),
        );
  const base = {
    contract: artifact.name,
    address: built.contractAddress,
    contractId: built.contractId,
    txId,
    verified: built.lines,
  };
  if (reached.status === 'submitted') {
    // Paid for and on its way: follow it in the background, so the contract is still written to the
    // deployments file and watched once it is in a block, however long that takes.
    void waitForBlock(deps, txId, LATE_DEPLOY_BOUND_MS).then(async (late) => {
      try {
        if (late.status === 'confirmed') await record(late.blockHash);
        else if (late.status === 'failed') {
          const message = `Deploy of ${artifact.name} (${built.contractAddress}) failed: ${late.reason ?? 'unknown reason'}`;
          deps.log.warn(message);
          void showWarning(inert`${message}`);
        }
      } catch (e) {
        deps.log.error(
          `Deploy of ${artifact.name} at ${built.contractAddress} is in a block but could not be recorded: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    });
    deps.log.info(
      `Deploy of ${artifact.name} submitted (${txId}): ${built.contractAddress} is written to the deployments file and watched once it is in a block`,
    );
    return { ...base, status: 'submitted' };
  }
  if (reached.status !== 'confirmed') {
    return { ...base, status: reached.status, ...(reached.reason ? { error: reached.reason } : {}) };
  }
  return { ...base, status: 'confirmed', deploymentsFile: await record(reached.blockHash) };
}

const CONTRACT_ACTIONS: CommandTable<ContractActionsDeps> = [
  [CommandIds.simulateContractMethod, simulate],
  [CommandIds.executeContractMethod, execute],
  [CommandIds.deployContract, deploy],
];

export function registerContractActions(deps: ContractActionsDeps): vscode.Disposable[] {
  return registerCommands(deps, CONTRACT_ACTIONS);
}

/** Simulate and Execute for the contract panel: the same functions and wrapper as the commands. */
export function contractActions(deps: ContractActionsDeps): ContractActions {
  return {
    simulate: (request) =>
      runCommand(deps, CommandIds.simulateContractMethod, (args) => simulate(deps, args), [request]),
    execute: (request) =>
      runCommand(deps, CommandIds.executeContractMethod, (args) => execute(deps, args), [request]),
  };
}
