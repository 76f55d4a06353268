import * as vscode from 'vscode';
import { UserCancelledError } from '../core/errors';
import type { GatewayClient } from '../core/gateway';
import {
  addressFromPublicKey,
  attoToAlph,
  decodeUnsignedTx,
  publicKeyFromPrivateKey,
} from '../core/protocol';
import type { ConfirmationSummary } from '../core/workflows/confirmation';
import { checkUnsignedTx, normalizeUnsignedTxHex } from '../core/workflows/decodeCheck';
import {
  SweepIncompleteError,
  TransferDeclinedError,
  sendSweep,
  sendTransfer,
  type ConfirmStage,
  type ProgressStep,
  type SendDeps,
  type SentTransfer,
  type TxSigner,
} from '../core/workflows/sendTransfer';
import {
  checkAlphAmount,
  checkGroups,
  checkGas,
  checkRecipient,
  checkTokens,
  checkTxId,
  parseAlphAmount,
  parseGas,
  parseGasAmount,
  parseGasPrice,
  parseGroups,
  parseTokens,
  parseTxId,
} from '../core/workflows/transferInput';
import { shortTxId } from '../core/workflows/txDetailsModel';
import {
  TransferVerificationError,
  signVerifiedTransfer,
  type TransferRequest,
  type VerifiedTransfer,
  type VerifyOptions,
} from '../core/workflows/verifyTransfer';
import { inert, inertLines, type Inert } from '../core/text/inert';
import { askModal, showInfo } from '../platform/notify';
import * as config from '../config';
import type { ConnectionManager } from '../connection';
import { CommandIds } from '../constants';
import type { SecretStore } from '../secrets';
import { registerCommand, type CommandContext } from '../util/commands';
import { argString, argValue, askText, pick } from '../util/prompts';
import type { TrackedTransactions } from './trackedTransactions';
import { toState, type TxDetailsPanels } from './txDetailsPanel';

export interface TransactionCommandDeps extends CommandContext {
  readonly connection: ConnectionManager;
  readonly secrets: SecretStore;
  readonly store: TrackedTransactions;
  readonly panels: TxDetailsPanels;
}

const STEP_TEXT: Record<ProgressStep, string> = {
  validating: 'Checking the input…',
  building: 'Building the transaction on the gateway…',
  verifying: 'Verifying the built bytes before signing…',
  confirming: 'Waiting for your confirmation…',
  signing: 'Signing locally…',
  submitting: 'Submitting…',
};

export function registerTransactionCommands(deps: TransactionCommandDeps): vscode.Disposable[] {
  return [
    registerCommand(deps, CommandIds.sendTransfer, (args) => sendTransferCommand(deps, args)),
    registerCommand(deps, CommandIds.sweepAddress, (args) => sweepCommand(deps, args)),
    registerCommand(deps, CommandIds.decodeUnsignedTx, (args) => decodeCommand(deps, args)),
    registerCommand(deps, CommandIds.trackTransaction, (args) => trackCommand(deps, args)),
    registerCommand(deps, CommandIds.showTransaction, (args) => showCommand(deps, args)),
    registerCommand(deps, CommandIds.untrackTransaction, (args) => untrackCommand(deps, args)),
  ];
}

export interface SigningContext {
  readonly client: GatewayClient;
  readonly profileName: string;
  readonly network: string;
  readonly signer: TxSigner;
  readonly fromAddress: string;
  /** The bytes of each signed txId, so a pending tx can be shown at once. */
  readonly signedBytes: Map<string, string>;
}

/**
 * A signer that reads the key from SecretStorage only when a verified transaction is to be signed and
 * drops it right after: the key is never held across prompts, never logged and never leaves this host.
 */
export async function signingContext(
  deps: Pick<TransactionCommandDeps, 'connection' | 'secrets'>,
): Promise<SigningContext> {
  const client = deps.connection.requireClient();
  const profile = deps.connection.state.profile;
  const key = await deps.secrets.getSignerKey();
  if (!key) throw new Error('No signer key is set. Run "Alephium: Import Signer Key" first.');
  const publicKey = publicKeyFromPrivateKey(key);
  const signedBytes = new Map<string, string>();
  const signer: TxSigner = Object.freeze({
    publicKey,
    sign: async (verified: VerifiedTransfer) => {
      const current = await deps.secrets.getSignerKey();
      if (!current) throw new Error('The signer key was removed before signing; nothing was signed.');
      const signed = signVerifiedTransfer(verified, current);
      signedBytes.set(signed.txId, signed.unsignedTx);
      return signed.signature;
    },
    toJSON: () => ({ publicKey }),
  });
  return {
    client,
    profileName: profile?.name ?? '?',
    network: profile?.network ?? 'unknown',
    signer,
    fromAddress: addressFromPublicKey(publicKey),
    signedBytes,
  };
}

/**
 * The modal confirmation. Skipping is explicit only (`confirm: false` or the setting), is logged, and
 * never applies to mainnet, where both confirmations are always shown.
 */
function confirmer(
  deps: TransactionCommandDeps,
  args: unknown,
): { confirm: SendDeps['confirm']; skipped: () => boolean } {
  const byArgument = argValue(args, 'confirm') === false;
  const bySetting = !config.confirmBeforeSigning();
  let skipped = false;
  const confirm = async (summary: ConfirmationSummary, stage: ConfirmStage): Promise<boolean> => {
    if ((byArgument || bySetting) && !summary.network.isMainnet) {
      skipped = true;
      deps.log.info(
        `Confirmation skipped (${byArgument ? 'argument confirm: false' : 'setting alephium.transactions.confirmBeforeSigning = false'}) on ${summary.network.name}:\n${summary.text}`,
      );
      return true;
    }
    if (byArgument || bySetting) deps.log.warn('Confirmation cannot be skipped on mainnet; asking.');
    const action = stage === 'first' ? 'Sign and Send' : `Yes, send on ${summary.network.name}`;
    const title =
      stage === 'first' ? summary.title : `Second confirmation: ${summary.secondConfirmationReason ?? ''}`;
    const choice = await askModal(inert`${title}`, inertLines(summary.lines), action);
    return choice === action;
  };
  return { confirm, skipped: () => skipped };
}

function withSendProgress<T>(
  title: string,
  run: (report: (step: ProgressStep) => void, signal: AbortSignal) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        return await run((step) => progress.report({ message: STEP_TEXT[step] }), controller.signal);
      } finally {
        sub.dispose();
      }
    },
  );
}

/**
 * What the bytes' network id may be: a mainnet or testnet profile gets exactly its id; a devnet profile
 * (arbitrary ids) the id its node reports (learned once, the client caches chain params), and never
 * mainnet's or testnet's, which would make the signed transaction replayable there.
 */
export async function networkPin(ctx: SigningContext): Promise<VerifyOptions> {
  if (ctx.network === 'mainnet') return { expectedNetworkId: 0 };
  if (ctx.network === 'testnet') return { expectedNetworkId: 1 };
  const { networkId } = await ctx.client.getChainParams({ priority: 'user' });
  return { expectedNetworkId: networkId, refusedNetworkIds: [0, 1] };
}

async function sendDeps(
  ctx: SigningContext,
  confirm: SendDeps['confirm'],
  report: (s: ProgressStep) => void,
  signal: AbortSignal,
): Promise<SendDeps> {
  return {
    client: ctx.client,
    signer: ctx.signer,
    confirm,
    confirmation: { profileNetwork: ctx.network },
    verify: await networkPin(ctx),
    // Spec rule: decode before signing. The local decoding decides; the gateway's must agree with it.
    crossCheckDecode: true,
    signal,
    onProgress: report,
  };
}

/** Declining is a cancellation (quiet); a refused build is an error that says what differed. */
function rethrow(deps: TransactionCommandDeps, error: unknown): never {
  if (error instanceof TransferDeclinedError) {
    deps.log.info(`${error.message}; nothing was signed.`);
    throw new UserCancelledError();
  }
  if (error instanceof TransferVerificationError) {
    deps.log.error(
      `Refused before signing (${error.problems.length} problem(s)):\n${error.problems.map((p) => `  [${p.check}] ${p.message}`).join('\n')}`,
    );
  }
  throw error;
}

function track(deps: TransactionCommandDeps, ctx: SigningContext, sent: SentTransfer, label: string): void {
  const hex = ctx.signedBytes.get(sent.txId);
  let decoded;
  try {
    decoded = hex ? decodeUnsignedTx(hex) : undefined;
  } catch {
    decoded = undefined;
  }
  deps.store.track({ txId: sent.txId, fromGroup: sent.fromGroup, toGroup: sent.toGroup, label }, decoded);
}

function offerDetails(txId: string, message: Inert): void {
  void showInfo(message, 'Show Transaction').then((choice) => {
    if (choice) void vscode.commands.executeCommand(CommandIds.showTransaction, { txId });
  });
}

async function sendTransferCommand(deps: TransactionCommandDeps, args: unknown) {
  const ctx = await signingContext(deps);
  const to = (
    argString(args, 'to') ??
    (await askText({
      title: 'Send Transfer (1/4): recipient',
      prompt: `From ${ctx.fromAddress} on ${ctx.network} ("${ctx.profileName}")`,
      validate: checkRecipient,
    }))
  ).trim();
  const recipientProblem = checkRecipient(to);
  if (recipientProblem) throw new Error(`Recipient: ${recipientProblem}`);
  const amountText =
    argString(args, 'amount') ??
    (await askText({
      title: 'Send Transfer (2/4): amount in ALPH',
      prompt: 'Exact decimal ALPH, e.g. 1.5 (at least 0.001, the dust minimum)',
      validate: checkAlphAmount,
    }));
  const atto = parseAlphAmount(amountText);
  const interactive = argString(args, 'amount') === undefined;
  const tokens = parseTokens(
    argValue(args, 'tokens') ??
      (interactive
        ? await askText({
            title: 'Send Transfer (3/4): tokens (optional)',
            prompt: 'tokenId:amount in the smallest unit; leave empty to send ALPH only',
            validate: (v) => (v.trim() === '' ? undefined : checkTokens(v)),
          })
        : undefined),
  );
  let gasAmount = parseGasAmount(argValue(args, 'gasAmount'));
  let gasPrice = parseGasPrice(argValue(args, 'gasPrice'));
  if (interactive) {
    const gas = parseGas(
      await askText({
        title: 'Send Transfer (4/4): gas (optional)',
        prompt:
          'gasAmount[, gasPrice in atto]; leave empty to let the node estimate and use its default price',
        validate: checkGas,
      }),
    );
    gasAmount = gas.gasAmount;
    gasPrice = gas.gasPrice;
  }
  const request: TransferRequest = {
    fromPublicKey: ctx.signer.publicKey,
    destinations: [{ address: to, attoAlphAmount: atto, ...(tokens.length > 0 ? { tokens } : {}) }],
    ...(gasAmount !== undefined ? { gasAmount } : {}),
    ...(gasPrice !== undefined ? { gasPrice } : {}),
  };
  const { confirm, skipped } = confirmer(deps, args);
  let sent: SentTransfer;
  try {
    sent = await withSendProgress('Alephium: Send Transfer', async (report, signal) =>
      sendTransfer(await sendDeps(ctx, confirm, report, signal), request),
    );
  } catch (error) {
    rethrow(deps, error);
  }
  const label = `Send ${attoToAlph(atto)} ALPH → ${to.slice(0, 8)}…`;
  track(deps, ctx, sent, label);
  deps.log.info(
    `Submitted ${sent.txId} (${sent.fromGroup} → ${sent.toGroup}): ${attoToAlph(atto)} ALPH to ${to}, fee ${attoToAlph(sent.fee)} ALPH${sent.recovered ? ' (submit answer lost; the node has it)' : ''}`,
  );
  offerDetails(sent.txId, inert`Submitted ${shortTxId(sent.txId)}: ${attoToAlph(atto)} ALPH to ${to}.`);
  return {
    txId: sent.txId,
    fromGroup: sent.fromGroup,
    toGroup: sent.toGroup,
    from: ctx.fromAddress,
    to,
    amountAtto: atto.toString(),
    amountAlph: attoToAlph(atto),
    feeAtto: sent.fee.toString(),
    feeAlph: attoToAlph(sent.fee),
    recovered: sent.recovered,
    confirmationSkipped: skipped(),
  };
}

async function sweepCommand(deps: TransactionCommandDeps, args: unknown) {
  const ctx = await signingContext(deps);
  const to = (
    argString(args, 'to') ??
    (await askText({
      title: `Sweep ${ctx.fromAddress}: destination`,
      prompt: 'Every output of the signer address moves there (after gas)',
      validate: checkRecipient,
    }))
  ).trim();
  const problem = checkRecipient(to);
  if (problem) throw new Error(`Destination: ${problem}`);
  const gasPrice = parseGasPrice(argValue(args, 'gasPrice'));
  const { confirm, skipped } = confirmer(deps, args);
  let swept;
  try {
    swept = await withSendProgress('Alephium: Sweep Address', async (report, signal) =>
      sendSweep(await sendDeps(ctx, confirm, report, signal), {
        fromPublicKey: ctx.signer.publicKey,
        toAddress: to,
        ...(gasPrice !== undefined ? { gasPrice } : {}),
      }),
    );
  } catch (error) {
    if (error instanceof SweepIncompleteError) {
      // What went out is real: track it even though the rest failed.
      error.submitted.forEach((s, i) => track(deps, ctx, s, `Sweep ${i + 1} → ${to.slice(0, 8)}…`));
    }
    rethrow(deps, error);
  }
  swept.txs.forEach((s, i) => track(deps, ctx, s, `Sweep ${i + 1}/${swept.txs.length} → ${to.slice(0, 8)}…`));
  deps.log.info(
    `Sweep of ${ctx.fromAddress} to ${to}: ${swept.txs.length} transaction(s), ${attoToAlph(swept.totalSwept)} ALPH, fee ${attoToAlph(swept.totalFee)} ALPH`,
  );
  const first = swept.txs[0];
  if (first)
    offerDetails(
      first.txId,
      inert`Sweep submitted: ${swept.txs.length} transaction(s), ${attoToAlph(swept.totalSwept)} ALPH to ${to}.`,
    );
  return {
    txIds: swept.txs.map((t) => t.txId),
    to,
    totalSweptAtto: swept.totalSwept.toString(),
    totalSweptAlph: attoToAlph(swept.totalSwept),
    totalFeeAtto: swept.totalFee.toString(),
    confirmationSkipped: skipped(),
  };
}

async function decodeCommand(deps: TransactionCommandDeps, args: unknown) {
  const text =
    argString(args, 'unsignedTx') ??
    (await askText({
      title: 'Decode Unsigned Transaction',
      prompt: 'Paste the unsigned transaction (hex)',
      validate: (v) =>
        /^[0-9a-f]+$/.test(normalizeUnsignedTxHex(v)) && normalizeUnsignedTxHex(v).length % 2 === 0
          ? undefined
          : 'Hex digits only (an even number of them).',
    }));
  const hex = normalizeUnsignedTxHex(text);
  // Local decoding first: a malformed paste fails here with a field-named error and costs no request.
  checkUnsignedTx(hex);
  const client = deps.connection.state.client;
  const gateway = client
    ? await client
        .decodeUnsignedTx(hex, { priority: 'user' })
        .catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))))
    : undefined;
  const check = checkUnsignedTx(hex, gateway);
  const state = toState({ txId: check.txId, unsignedTx: hex });
  if (state && argValue(args, 'show') !== false) deps.panels.showUnsigned(state, check);
  if (check.problems.length > 0) deps.log.warn(`Decoded ${check.txId}: ${check.problems.join('; ')}`);
  return {
    txId: check.txId,
    networkId: check.decoded.networkId,
    gasAmount: check.decoded.gasAmount,
    gasPrice: check.decoded.gasPrice,
    feeAtto: check.fee.toString(),
    feeAlph: attoToAlph(check.fee),
    ...(check.groups ? check.groups : {}),
    hasScript: Boolean(check.decoded.scriptOpt),
    inputs: check.decoded.inputs.length,
    outputs: check.decoded.fixedOutputs.map((o) => ({
      address: o.address,
      attoAlphAmount: o.attoAlphAmount,
      alph: attoToAlph(o.attoAlphAmount),
      tokens: o.tokens,
      lockTime: o.lockTime,
      message: o.message,
    })),
    gateway: check.gateway,
    problems: check.problems,
  };
}

async function txTarget(
  args: unknown,
  title: string,
  askGroups: boolean,
): Promise<{ txId: string; fromGroup?: number; toGroup?: number }> {
  const given = argString(args, 'txId');
  const txId = parseTxId(
    given ?? (await askText({ title, prompt: 'Transaction id (64 hex digits)', validate: checkTxId })),
  );
  const from = argValue(args, 'fromGroup');
  const to = argValue(args, 'toGroup');
  if (from !== undefined || to !== undefined) {
    const groups = parseGroups(`${String(from)},${String(to)}`);
    return { txId, ...groups };
  }
  if (given !== undefined || !askGroups) return { txId };
  const groups = await askText({
    title,
    prompt: 'Groups from,to (optional, e.g. 0,1): leave empty to let the gateway search',
    validate: checkGroups,
  });
  return { txId, ...parseGroups(groups) };
}

async function trackCommand(deps: TransactionCommandDeps, args: unknown) {
  const target = await txTarget(args, 'Track Transaction', true);
  const label = argString(args, 'label');
  deps.store.track({ ...target, ...(label ? { label } : {}) });
  deps.log.info(`Tracking ${target.txId}`);
  return { txId: target.txId };
}

async function showCommand(deps: TransactionCommandDeps, args: unknown) {
  const target = await txTarget(args, 'Show Transaction', false);
  const state = toState(target);
  if (!state) throw new Error('A transaction id is 64 hex digits.');
  deps.panels.show(state);
  return { txId: state.txId };
}

async function untrackCommand(deps: TransactionCommandDeps, args: unknown) {
  let txId = argString(args, 'txId');
  if (!txId) {
    const records = deps.store.records();
    if (records.length === 0) throw new Error('No transaction is tracked.');
    txId = (
      await pick(
        records.map((r) => ({ label: r.label ?? shortTxId(r.txId), description: r.txId, txId: r.txId })),
        { placeHolder: 'Untrack which transaction?' },
      )
    ).txId;
  }
  const id = parseTxId(txId);
  const untracked = deps.store.untrack(id);
  deps.log.info(`Untracked ${id}`);
  return { txId: id, untracked };
}
