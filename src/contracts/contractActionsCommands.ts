/**
 * The commands "Simulate Contract Method", "Execute Contract Method" and "Deploy Contract": prompts (or an
 * argument object), progress, the confirmation modal, tracking and the deployments file. Everything they
 * decide is in src/core/contracts/actions.ts; this file only asks, shows and writes.
 */
import { withProgress, withRequestProgress } from '../platform/progress';
import * as vscode from 'vscode';
import type { ArtifactRegistry, ContractArtifact } from '../core/artifacts';

import { attoToAlph, decodeUnsignedTx, groupOfAddress, shortTxId } from '../core/protocol';
import type {
  BuiltScriptTx,
  DeploymentRecord,
  PreparedDeploy,
  PreparedMethodCall,
} from '../core/contracts/actions';
import { actionsEngine } from '../platform/lazyEngine';
import { launchFilesOf, startOwnDebugging } from '../debugging';
import type {
  DeployView,
  EventView,
  ExecuteRequest,
  ExecutionStatus,
  ExecutionView,
  MethodCallRequest,
  SimulationView,
} from '../core/contracts/actionViews';
import { inert } from '../core/text/inert';
import type { TokenMetadata } from '../core/signing/confirmation';
import type { VerifyOptions } from '../core/signing/verify';
import { showInfo, showWarning } from '../platform/notify';

import { CommandIds } from '../constants';
import {
  networkPinFor,
  rethrowRefusal,
  shortOfAlphWords,
  signerAddressIfAny,
  signerContext,
  signingDeps,
  type SignerContext,
} from '../platform/signing';
import { fromOwnUi, runCommand, type CommandTable } from '../platform/commands';
import { argString, argValue } from '../platform/prompts';
import type { Services } from '../services';
import {
  askDeployValues,
  askedInteractively,
  deployArtifact,
  deployFieldsGiven,
  deployRequestOf,
  methodRequest,
  refusedStep,
  type AskedMethodCall,
  type DeployValues,
} from './actionPrompts';
import type { ContractActions } from './panel/host';
import { writeDeploymentsEntry } from './deploymentsWriter';
import {
  deployedLaunchConfiguration,
  type RalphLaunchConfiguration,
} from '../core/ralphDebug/deployedLaunch';

/**
 * The services of Simulate, Execute and Deploy: the contracts service resolves artifacts as the Watched
 * Contracts view does, picks a contract and polls one ahead of its turn; the failures put a failed call at its
 * Ralph line and debug messages at their emit; the tracked transactions follow what was sent.
 */
export type ContractActionsDeps = Pick<
  Services,
  'log' | 'redactor' | 'connection' | 'secrets' | 'tracked' | 'contracts' | 'failures' | 'artifacts'
>;

/** How long a command waits for its transaction to reach a block before returning 'submitted'. */
const WAIT_FOR_BLOCK_MS = 180_000;
/**
 * How long a deploy still not in a block when the command returns is followed in the background, so the
 * contract is written to the deployments file and watched once it is (the tracker ends sooner on failure).
 */
const LATE_DEPLOY_BOUND_MS = 6 * 3_600_000;

/** A dry run's outcome in the editor: a failure at the asserting line, debug messages at their emit. */
async function reportSimulation(
  deps: ContractActionsDeps,
  view: SimulationView,
  request: MethodCallRequest,
  artifact: ContractArtifact,
  origin: string,
): Promise<string | undefined> {
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
  const asked = await methodRequest(deps, args, 'Simulate Contract Method');
  const view = await simulateAsked(deps, asked);
  if (askedInteractively(args, asked.methodGiven)) await saySimulated(view);
  return view;
}

/** Says a palette or lens Simulate's outcome: without it the command that succeeded would say nothing. */
async function saySimulated(view: SimulationView): Promise<void> {
  const said = (await actionsEngine()).simulationWords(view);
  if (said !== undefined) void showInfo(inert`${said}`);
}

/**
 * The call prepared with the signer as its caller when it could be the real one (same group); else the
 * dry run (or the debugger's run) goes callerless.
 */
async function preparedWithSigner(deps: ContractActionsDeps, asked: AskedMethodCall) {
  const { request, artifact, registry } = asked;
  const signer = await signerAddressIfAny(deps.secrets);
  const signerAddress =
    signer !== undefined && groupOfAddress(signer) === groupOfAddress(request.address) ? signer : undefined;
  const prepared = (await actionsEngine()).prepareMethodCall(request, {
    artifact,
    registry,
    ...(signerAddress ? { signerAddress } : {}),
  });
  return { signerAddress, prepared };
}

async function simulateAsked(deps: ContractActionsDeps, asked: AskedMethodCall): Promise<SimulationView> {
  const { request, artifact, registry } = asked;
  const { prepared } = await preparedWithSigner(deps, asked);
  const client = deps.connection.requireClient();
  const lookup = await deps.contracts.artifactLookup([request.address]);
  const engine = await actionsEngine();
  // Shown past 2 s or at a retry, with Cancel (platform/progress.ts), like every request a person waits on.
  const view = await withRequestProgress(client, `Simulating ${artifact.name}.${prepared.fn.name}…`, () =>
    engine.simulateMethodCall({ client, artifactOf: lookup, registry }, prepared),
  );
  for (const d of view.debugMessages) deps.log.info(`Debug > Contract @ ${d.contractAddress} - ${d.message}`);
  if (view.ok) rememberGas(deps, artifact, prepared, view, 'simulate');
  const explained = await reportSimulation(deps, view, request, artifact, 'simulate');
  deps.log.info(
    `Simulated ${artifact.name}.${prepared.fn.name}: ${view.ok ? `ok, gas ${view.gasUsed ?? '?'}, ${view.events.length} event(s)` : `failed: ${view.error ?? ''}`}`,
  );
  return explained ? { ...view, error: explained } : view;
}

/** What Debug Contract Method started: the configuration VS Code's debugger runs, or why not. */
export interface DebugLaunchView {
  readonly started: boolean;
  readonly configuration: RalphLaunchConfiguration;
}

/**
 * Debug Contract Method (the panel's Debug, the Debug lens, the palette): the method's arguments are asked
 * and checked as Simulate's are, the contract's state is read from the active profile (one request, said
 * in the progress and the Debug Console), and VS Code's debugger runs the method on the project's VM.
 * Nothing is signed or sent beyond that read.
 */
async function debugMethod(deps: ContractActionsDeps, args?: unknown): Promise<DebugLaunchView> {
  const asked = await methodRequest(deps, args, 'Debug Contract Method');
  const { request, artifact } = asked;
  const { signerAddress, prepared } = await preparedWithSigner(deps, asked);
  const files = await launchFilesOf(deps, artifact);
  if (!files) throw new Error(`The debugger needs ${artifact.name}'s artifact as a file of the workspace`);
  const client = deps.connection.requireClient();
  const state = await withRequestProgress(
    client,
    `Reading ${artifact.name}'s state for the debugger (1 request)…`,
    () => client.getContractState(request.address),
  );
  const configuration = deployedLaunchConfiguration({
    contractName: artifact.name,
    address: request.address,
    method: prepared.fn.name,
    args: request.args ?? [],
    ...files,
    state,
    codeHashes: prepared.codeHashes,
    ...(signerAddress ? { signerAddress } : {}),
    approvedAttoAlph: prepared.approvedAttoAlph,
    profile: deps.connection.profile?.name ?? 'the active profile',
  });
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(files.artifactPath));
  deps.log.info(`Debug ${artifact.name}.${prepared.fn.name}: ${String(configuration.stateFrom)}`);
  const started = await startOwnDebugging(folder, configuration);
  return { started, configuration };
}

/**
 * The names of the tokens a script approves or deposits, from the connection's TokenCatalog (as the
 * transfer confirmation gets them); when they cannot be read the confirmation shows raw amounts and ids.
 */
async function tokenNamesOf(
  deps: ContractActionsDeps,
  tokens: readonly { readonly id: string }[],
  signal: AbortSignal,
): Promise<TokenMetadata | undefined> {
  if (tokens.length === 0) return undefined;
  try {
    return await deps.connection.tokenMetadata(
      tokens.map((t) => t.id),
      signal,
    );
  } catch (error) {
    deps.log.warn(
      `Token names could not be read; the confirmation shows raw amounts and ids: ${String(error)}`,
    );
    return undefined;
  }
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
  action: 'Sign and Execute' | 'Sign and Deploy',
  label: string,
) {
  const engine = await actionsEngine();
  const flow = action === 'Sign and Deploy' ? 'deploy' : 'execute';
  const sent = await engine
    .confirmSignAndSubmit(
      { ...signingDeps(deps, ctx, args, action, flow), client: ctx.client },
      built.verified,
      engine.scriptConfirmation(title, built.verified, built.lines, { profileNetwork: ctx.network }),
    )
    .catch((e: unknown) => refused(deps, e));
  deps.tracked.track(
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
      const r = deps.tracked.record(txId);
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
    const sub = deps.tracked.onDidChange((changed) => {
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

async function execute(deps: ContractActionsDeps, args?: unknown): Promise<ExecutionView | SimulationView> {
  // The signer first: what it cannot run (another group) is said before a method is asked for.
  const ctx = await signerContext(deps);
  const asked = await methodRequest(deps, args, 'Execute Contract Method', {
    signerAddress: ctx.fromAddress,
  });
  if (asked.simulateInstead) {
    const view = await simulateAsked(deps, asked);
    await saySimulated(view);
    return view;
  }
  const view = await executeAsked(deps, ctx, args, asked);
  if (askedInteractively(args, asked.methodGiven)) await sayExecuted(view);
  return view;
}

/** Says a palette or lens Execute's outcome (core/contracts/resultWords.ts); the panel shows its own. */
async function sayExecuted(view: ExecutionView): Promise<void> {
  const said = (await actionsEngine()).executionWords(view);
  if (said.warning) void showWarning(inert`${said.text}`);
  else void showInfo(inert`${said.text}`);
}

async function executeAsked(
  deps: ContractActionsDeps,
  ctx: SignerContext,
  args: unknown,
  asked: AskedMethodCall,
): Promise<ExecutionView> {
  const request: ExecuteRequest = asked.request;
  const { artifact, registry } = asked;
  const prepared = (await actionsEngine()).prepareMethodCall(request, {
    artifact,
    registry,
    signerAddress: ctx.fromAddress,
  });
  const lookup = await deps.contracts.artifactLookup([request.address]);
  const what = `${artifact.name}.${prepared.fn.name}`;
  const { simulation, built } = await withProgress(
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
            await actionsEngine(),
            controller.signal,
            await tokenNamesOf(deps, prepared.approvedTokens, controller.signal),
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
  const reached = await withProgress(
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

/** `deployments/.deployments.<network>.json` of the project that holds the artifact (deploymentsWriter.ts). */
function writeDeployment(
  deps: ContractActionsDeps,
  artifact: ContractArtifact,
  network: string,
  record: DeploymentRecord,
): ReturnType<typeof writeDeploymentsEntry> {
  return writeDeploymentsEntry(deps.contracts.artifacts, artifact, network, async (existing) =>
    (await actionsEngine()).addDeployment(existing, record),
  );
}

/** How often one deploy sends a person back to a refused step before it gives up with the reason. */
const MAX_RETURNS_TO_A_STEP = 10;

/** Builds the deploy on the gateway and verifies its bytes, with progress and a Cancel button. */
function buildDeploy(
  deps: ContractActionsDeps,
  ctx: SignerContext,
  pin: VerifyOptions,
  artifact: ContractArtifact,
  prepared: PreparedDeploy,
) {
  return withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Deploy ${artifact.name}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        progress.report({ message: 'Building on the gateway and verifying the deploy script…' });
        const engine = await actionsEngine();
        return await engine.buildAndVerifyDeploy(
          ctx.client,
          prepared,
          ctx.publicKey,
          pin,
          engine,
          controller.signal,
          await tokenNamesOf(deps, prepared.initialTokens, controller.signal),
        );
      } finally {
        sub.dispose();
      }
    },
  );
}

/**
 * Prepares and builds the deploy, from the argument object or from what is typed. A step refused after it
 * was typed (a field or the deposit by the core; the deposit by the node's build, for want of ALPH, with
 * the shortfall beside the balance) is asked again with every value typed kept, instead of ending the flow
 * and losing them; from an argument object, the refusal is the error.
 */
async function preparedAndBuilt(
  deps: ContractActionsDeps,
  args: unknown,
  ctx: SignerContext,
  pin: VerifyOptions,
  artifact: ContractArtifact,
  registry: ArtifactRegistry,
) {
  const engine = await actionsEngine();
  const given = argString(args, 'alph');
  let values: DeployValues | undefined = deployFieldsGiven(args)
    ? undefined
    : await askDeployValues(artifact, registry, {
        fields: {},
        ...(given !== undefined ? { alph: given } : {}),
      });
  for (let attempt = 1; ; attempt++) {
    const mayAskAgain = values !== undefined && attempt < MAX_RETURNS_TO_A_STEP;
    let prepared: PreparedDeploy;
    try {
      prepared = engine.prepareDeploy(
        deployRequestOf(artifact, args, values),
        artifact,
        ctx.fromAddress,
        registry,
        {
          networkId: pin.expectedNetworkId,
        },
      );
    } catch (error) {
      const step = refusedStep(error);
      if (values === undefined || !mayAskAgain || step === undefined) throw error;
      values = await askDeployValues(artifact, registry, values, step);
      continue;
    }
    if (prepared.codeNote !== undefined) deps.log.warn(prepared.codeNote);
    else if (prepared.codeBuild === 'debug')
      deps.log.info(`Deploying the debug build of ${artifact.name}: its emit Debug messages will be emitted`);
    try {
      return { prepared, built: await buildDeploy(deps, ctx, pin, artifact, prepared) };
    } catch (error) {
      const words = await shortOfAlphWords(ctx, error);
      if (words === undefined) refused(deps, error);
      if (values === undefined || !mayAskAgain) refused(deps, new Error(words, { cause: error }));
      deps.log.info(`Deploy ${artifact.name}: ${words} Back to the deposit.`);
      values = await askDeployValues(artifact, registry, values, {
        step: 'alph',
        message: words,
        sameValueMayPass: true,
      });
    }
  }
}

async function deploy(deps: ContractActionsDeps, args?: unknown): Promise<DeployView> {
  const { artifact, registry } = await deployArtifact(deps, args);
  const ctx = await signerContext(deps);
  // The network first: a devnet deploys the debug build (as the CLI does), mainnet and testnet never.
  const pin = await networkPinFor(ctx);
  const { prepared, built } = await preparedAndBuilt(deps, args, ctx, pin, artifact, registry);
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
      : await withProgress(
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

/** Loaded on the first Simulate, Execute or Deploy (contracts/contractActions.ts registers the ids). */
export const CONTRACT_ACTIONS: CommandTable<ContractActionsDeps> = [
  [CommandIds.simulateContractMethod, simulate],
  [CommandIds.executeContractMethod, execute],
  [CommandIds.deployContract, deploy],
  [CommandIds.debugContractMethod, debugMethod],
];

/** Simulate and Execute for the contract panel: the same functions and wrapper as the commands. */
export function contractActions(deps: ContractActionsDeps): ContractActions {
  return {
    // The panel is the user's own UI: what they chose there is theirs, not a caller's.
    simulate: (request) =>
      runCommand(deps, CommandIds.simulateContractMethod, (args) => simulate(deps, args), [
        fromOwnUi({ ...request }),
      ]),
    execute: (request) =>
      runCommand(deps, CommandIds.executeContractMethod, (args) => execute(deps, args), [
        fromOwnUi({ ...request }),
      ]),
    debug: (request) =>
      runCommand(deps, CommandIds.debugContractMethod, (args) => debugMethod(deps, args), [
        fromOwnUi({ ...request }),
      ]),
  };
}
