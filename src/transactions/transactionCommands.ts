import * as vscode from 'vscode';
import { attoToAlph, decodeUnsignedTx, shortTxId } from '../core/protocol';
import { checkUnsignedTx, normalizeUnsignedTxHex } from '../core/signing/decodeCheck';
import type { ProgressStep, SendDeps, SentSigned, SentTransfer } from '../core/transactions/sendTransfer';
import {
  checkAlphAmount,
  checkGroups,
  checkGas,
  checkRecipient,
  checkTokens,
  checkTxId,
  parseAlphAmount,
  parseRecipient,
  parseGas,
  parseGasAmount,
  parseGasPrice,
  parseGroups,
  parseTokens,
  parseTxId,
} from '../core/transactions/transferInput';
import type { TransferRequest, VerifyOptions } from '../core/signing/verify';
import { inert, type Inert } from '../core/text/inert';
import { inertCheck } from '../core/text/inertInput';
import { errorMessage } from '../core/util/errors';
import { showInfo } from '../platform/notify';
import { actionsEngine } from '../platform/lazyEngine';
import {
  networkPinFor,
  rethrowRefusal,
  signerContext,
  signingDeps,
  withBalanceWords,
  withCancellableProgress,
  type SignerContext,
} from '../platform/signing';
import { CommandIds } from '../constants';
import type { CommandTable } from '../platform/commands';
import { argString, argValue, askText, pick } from '../platform/prompts';
import type { Services } from '../services';
import { TX_DETAILS_LIMITS } from '../core/transactions/txDetailsProtocol';
import { toState } from './txDetails/host';
import type { TxDetailsPanelsHandle } from './transactionsFeature';

/** The services the send, sweep, decode and track commands use, and the details panels they open. */
export type TransactionCommandDeps = Pick<
  Services,
  'log' | 'redactor' | 'connection' | 'secrets' | 'tracked'
> & {
  readonly panels: TxDetailsPanelsHandle;
};

const STEP_TEXT: Record<ProgressStep, string> = {
  validating: 'Checking the input…',
  building: 'Building the transaction on the gateway…',
  verifying: 'Verifying the built bytes before signing…',
  'naming-tokens': 'Reading the token names (one multicall per six unknown tokens, then cached)…',
  confirming: 'Waiting for your confirmation…',
  signing: 'Signing locally…',
  submitting: 'Submitting…',
};

/** Loaded on the first run of one of them (transactionsFeature.ts registers the ids at activation). */
export const TRANSACTION_COMMANDS: CommandTable<TransactionCommandDeps> = [
  [CommandIds.sendTransfer, sendTransferCommand],
  [CommandIds.sweepAddress, sweepCommand],
  [CommandIds.decodeUnsignedTx, decodeCommand],
  [CommandIds.trackTransaction, trackCommand],
  [CommandIds.showTransaction, showCommand],
  [CommandIds.untrackTransaction, untrackCommand],
];

function withSendProgress<T>(
  title: string,
  run: (report: (step: ProgressStep) => void, signal: AbortSignal) => Promise<T>,
): Thenable<T> {
  return withCancellableProgress(title, (report, signal) => run((step) => report(STEP_TEXT[step]), signal));
}

/** The send workflow's deps: the client and the one signing path's deps (platform/signing.ts). */
function sendDeps(
  deps: TransactionCommandDeps,
  ctx: SignerContext,
  args: unknown,
  flow: 'transfer' | 'sweep',
  verify: VerifyOptions,
  report: (s: ProgressStep) => void,
  signal: AbortSignal,
): SendDeps {
  return {
    ...signingDeps(deps, ctx, args, 'Sign and Send', flow, signal),
    client: ctx.client,
    confirmation: { profileNetwork: ctx.network },
    verify,
    // Spec rule: decode before signing. The local decoding decides; the gateway's must agree with it.
    crossCheckDecode: true,
    onProgress: report,
    // Token names come from the active connection's catalog, resolved before the modal is built.
    tokenMetadata: (ids, tokenSignal) => deps.connection.tokenMetadata(ids, tokenSignal),
    onTokenMetadataError: (error) =>
      deps.log.warn(
        `Token names could not be read; the confirmation shows raw amounts and ids: ${errorMessage(error)}`,
      ),
  };
}

function track(deps: TransactionCommandDeps, sent: SentTransfer, label: string): void {
  let decoded;
  try {
    decoded = decodeUnsignedTx(sent.unsignedTx);
  } catch {
    decoded = undefined;
  }
  deps.tracked.track({ txId: sent.txId, fromGroup: sent.fromGroup, toGroup: sent.toGroup, label }, decoded);
}

function offerDetails(txId: string, message: Inert): void {
  void showInfo(message, 'Show Transaction').then((choice) => {
    if (choice) void vscode.commands.executeCommand(CommandIds.showTransaction, { txId });
  });
}

async function sendTransferCommand(deps: TransactionCommandDeps, args: unknown) {
  const ctx = await signerContext(deps);
  const to = parseRecipient(
    argString(args, 'to') ??
      (await askText({
        title: inert`Send Transfer (1/4): recipient`,
        // The profile's name comes from settings a cloned workspace may hold: outside text.
        prompt: inert`From ${ctx.fromAddress} on ${ctx.network} ("${ctx.profileName}")`,
        validate: inertCheck(checkRecipient),
      })),
  );
  const amountText =
    argString(args, 'amount') ??
    (await askText({
      title: inert`Send Transfer (2/4): amount in ALPH`,
      prompt: inert`Exact decimal ALPH, e.g. 1.5 (at least 0.001, the dust minimum)`,
      validate: inertCheck(checkAlphAmount),
    }));
  const atto = parseAlphAmount(amountText);
  const interactive = argString(args, 'amount') === undefined;
  const tokens = parseTokens(
    argValue(args, 'tokens') ??
      (interactive
        ? await askText({
            title: inert`Send Transfer (3/4): tokens (optional)`,
            prompt: inert`tokenId:amount in the smallest unit; leave empty to send ALPH only`,
            validate: inertCheck((v) => (v.trim() === '' ? undefined : checkTokens(v))),
          })
        : undefined),
  );
  let gasAmount = parseGasAmount(argValue(args, 'gasAmount'));
  let gasPrice = parseGasPrice(argValue(args, 'gasPrice'));
  if (interactive) {
    const gas = parseGas(
      await askText({
        title: inert`Send Transfer (4/4): gas (optional)`,
        prompt: inert`gasAmount[, gasPrice in atto]; leave empty to let the node estimate and use its default price`,
        validate: inertCheck(checkGas),
      }),
    );
    gasAmount = gas.gasAmount;
    gasPrice = gas.gasPrice;
  }
  const request: TransferRequest = {
    fromPublicKey: ctx.publicKey,
    destinations: [{ address: to, attoAlphAmount: atto, ...(tokens.length > 0 ? { tokens } : {}) }],
    ...(gasAmount !== undefined ? { gasAmount } : {}),
    ...(gasPrice !== undefined ? { gasPrice } : {}),
  };
  let sent: SentSigned;
  try {
    sent = await withSendProgress('Alephium: Send Transfer', async (report, signal) =>
      (await actionsEngine()).sendTransfer(
        sendDeps(deps, ctx, args, 'transfer', await networkPinFor(ctx), report, signal),
        request,
      ),
    );
  } catch (error) {
    rethrowRefusal(deps.log, await withBalanceWords(ctx, error));
  }
  const label = `Send ${attoToAlph(atto)} ALPH → ${to.slice(0, 8)}…`;
  track(deps, sent, label);
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
    confirmationSkipped: sent.confirmationSkipped,
  };
}

async function sweepCommand(deps: TransactionCommandDeps, args: unknown) {
  const ctx = await signerContext(deps);
  const to = parseRecipient(
    argString(args, 'to') ??
      (await askText({
        title: inert`Sweep ${ctx.fromAddress}: destination`,
        prompt: inert`Every output of the signer address moves there (after gas)`,
        validate: inertCheck(checkRecipient),
      })),
    'Destination',
  );
  const gasPrice = parseGasPrice(argValue(args, 'gasPrice'));
  let swept;
  try {
    swept = await withSendProgress('Alephium: Sweep Address', async (report, signal) =>
      (await actionsEngine()).sendSweep(
        sendDeps(deps, ctx, args, 'sweep', await networkPinFor(ctx), report, signal),
        {
          fromPublicKey: ctx.publicKey,
          toAddress: to,
          ...(gasPrice !== undefined ? { gasPrice } : {}),
        },
      ),
    );
  } catch (error) {
    if (error instanceof (await actionsEngine()).SweepIncompleteError) {
      // What went out is real: track it even though the rest failed.
      error.submitted.forEach((s, i) => track(deps, s, `Sweep ${i + 1} → ${to.slice(0, 8)}…`));
    }
    rethrowRefusal(deps.log, error);
  }
  swept.txs.forEach((s, i) => track(deps, s, `Sweep ${i + 1}/${swept.txs.length} → ${to.slice(0, 8)}…`));
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
    confirmationSkipped: swept.confirmationSkipped,
  };
}

/** What is wrong with a pasted unsigned transaction before it is decoded: hex, even, and not megabytes. */
function pastedTxProblem(text: string): string | undefined {
  const hex = normalizeUnsignedTxHex(text);
  if (hex.length > TX_DETAILS_LIMITS.unsignedTxHexChars)
    return `${hex.length / 2} bytes is more than any transaction holds (at most ${TX_DETAILS_LIMITS.unsignedTxHexChars / 2}).`;
  return /^[0-9a-f]+$/.test(hex) && hex.length % 2 === 0
    ? undefined
    : 'Hex digits only (an even number of them).';
}

async function decodeCommand(deps: TransactionCommandDeps, args: unknown) {
  const text =
    argString(args, 'unsignedTx') ??
    (await askText({
      title: inert`Decode Unsigned Transaction`,
      prompt: inert`Paste the unsigned transaction (hex)`,
      validate: inertCheck(pastedTxProblem),
    }));
  const hex = normalizeUnsignedTxHex(text);
  const problem = pastedTxProblem(hex);
  if (problem) throw new Error(`Unsigned transaction: ${problem}`);
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
  if (state && argValue(args, 'show') !== false) await deps.panels.showUnsigned(state, check);
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
    given ??
      (await askText({
        title: inert`${title}`,
        prompt: inert`Transaction id (64 hex digits)`,
        validate: inertCheck(checkTxId),
      })),
  );
  const from = argValue(args, 'fromGroup');
  const to = argValue(args, 'toGroup');
  if (from !== undefined || to !== undefined) {
    const groups = parseGroups(`${String(from)},${String(to)}`);
    return { txId, ...groups };
  }
  if (given !== undefined || !askGroups) return { txId };
  const groups = await askText({
    title: inert`${title}`,
    prompt: inert`Groups from,to (optional, e.g. 0,1): leave empty to let the gateway search`,
    validate: inertCheck(checkGroups),
  });
  return { txId, ...parseGroups(groups) };
}

async function trackCommand(deps: TransactionCommandDeps, args: unknown) {
  const target = await txTarget(args, 'Track Transaction', true);
  const label = argString(args, 'label');
  // What a tx tracked by its id carries is unknown here: in a block, its details are read once (then cached)
  // so that a script that failed in its block is Failed, not Confirmed. A transfer's details say it ran.
  deps.tracked.track({ ...target, hasScript: true, ...(label ? { label } : {}) });
  deps.log.info(`Tracking ${target.txId}`);
  return { txId: target.txId };
}

async function showCommand(deps: TransactionCommandDeps, args: unknown) {
  const target = await txTarget(args, 'Show Transaction', false);
  const state = toState(target);
  if (!state) throw new Error('A transaction id is 64 hex digits.');
  await deps.panels.show(state);
  return { txId: state.txId };
}

async function untrackCommand(deps: TransactionCommandDeps, args: unknown) {
  let txId = argString(args, 'txId');
  if (!txId) {
    const records = deps.tracked.records();
    if (records.length === 0) throw new Error('No transaction is tracked.');
    txId = (
      await pick(
        records.map((r) => ({
          label: inert`${r.label ?? shortTxId(r.txId)}`,
          description: inert`${r.txId}`,
          txId: r.txId,
        })),
        { placeHolder: inert`Untrack which transaction?` },
      )
    ).txId;
  }
  const id = parseTxId(txId);
  const untracked = deps.tracked.untrack(id);
  deps.log.info(`Untracked ${id}`);
  return { txId: id, untracked };
}
