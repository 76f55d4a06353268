import * as vscode from 'vscode';
import {
  addressInfo,
  addressInfoMarkdown,
  balanceTokenIds,
  blockRows,
  blocksTable,
  checkAddress,
  presetRange,
  rangeProblem,
  timestampProblem,
  TIME_RANGE_PRESETS,
  type AddressInfo,
  type BlockRow,
  type TimeRangePreset,
} from '../core/node/nodeQueries';
import { errorMessage, UserCancelledError } from '../core/util/errors';
import { blocksRangeCost, blocksRangeNotice, costText } from '../core/ledger/costs';
import { inert } from '../core/text/inert';
import { inertCheck, inertProblem } from '../core/text/inertInput';
import { showInfo } from '../platform/notify';
import type { ConnectionManager } from '../platform/connection';
import { CommandIds } from '../constants';
import { registerCommand, type CommandContext } from '../platform/commands';
import { argString, argValue, askText, pick } from '../platform/prompts';
import { showResult } from '../platform/resultsDocument';

export interface NodeCommandDeps extends CommandContext {
  readonly connection: ConnectionManager;
}

function showDocument(args: unknown): boolean {
  return argString(args, 'show') !== 'none';
}

/** `Alephium: Address Info` and `Alephium: Blocks in Time Range`. Both return their result to callers. */
export function registerNodeCommands(deps: NodeCommandDeps): vscode.Disposable[] {
  const addressInfoCommand = async (args?: unknown): Promise<AddressInfo> => {
    const text =
      argString(args, 'address') ??
      (await askText({
        title: inert`Address Info`,
        prompt: inert`Alephium address`,
        validate: inertCheck((v) => {
          const c = checkAddress(v);
          return c.valid ? undefined : c.problem;
        }),
      }));
    const check = checkAddress(text);
    // A malformed address is answered locally: the gateway would only say 400.
    if (!check.valid) {
      if (showDocument(args)) await showResult('Address Info', addressInfoMarkdown(check));
      return check;
    }
    const client = deps.connection.requireClient();
    const [group, balance] = await Promise.all([
      client.getAddressGroup(check.address),
      client.getAddressBalance(check.address),
    ]);
    // Tokens are named by the token list, else their contracts: one multicall per six unknown tokens, once.
    const names = await deps.connection.tokenMetadata(balanceTokenIds(balance)).catch((error: unknown) => {
      deps.log.warn(`Address Info: token names could not be read, shown raw: ${errorMessage(error)}`);
      return undefined;
    });
    const info = addressInfo(check, group, balance, names);
    if (showDocument(args)) await showResult('Address Info', addressInfoMarkdown(info));
    return info;
  };

  const blocksInTimeRange = async (
    args?: unknown,
  ): Promise<{ fromTs: number; toTs: number; blocks: BlockRow[] }> => {
    let fromTs = Number(argValue(args, 'fromTs'));
    let toTs = Number(argValue(args, 'toTs'));
    const rangeArg = argString(args, 'range') as TimeRangePreset | undefined;
    if (rangeArg) ({ fromTs, toTs } = presetRange(rangeArg, Date.now()));
    const fromArguments = Number.isFinite(fromTs) && Number.isFinite(toTs);
    if (!fromArguments) {
      // Each choice says what it costs before anything is read.
      const chosen = await pick(
        [
          ...TIME_RANGE_PRESETS.map((p) => ({
            label: inert`${p.label}`,
            description: inert`${costText(blocksRangeCost(p.ms))}`,
            id: p.id,
          })),
          { label: inert`Custom range (millisecond timestamps)…`, id: 'custom' as const },
        ],
        { title: inert`Blocks in Time Range` },
      );
      if (chosen.id === 'custom') {
        fromTs = Number(
          await askText({
            title: inert`Blocks in Time Range`,
            prompt: inert`From (ms timestamp)`,
            value: String(Date.now() - 600_000),
            validate: inertCheck(timestampProblem),
          }),
        );
        const left = await deps.connection.requestsLeftThisMonth();
        toTs = Number(
          await askText({
            title: inert`Blocks in Time Range`,
            prompt: inert`To (ms timestamp)`,
            value: String(Date.now()),
            // A usable range shows its cost under the input (a line, not an error) before it is read.
            validate: (v) =>
              inertProblem(timestampProblem(v) ?? rangeProblem(fromTs, Number(v))) ?? {
                message: inert`${blocksRangeNotice(Number(v) - fromTs, left).text}`,
                severity: 'info',
              },
          }),
        );
      } else {
        ({ fromTs, toTs } = presetRange(chosen.id, Date.now()));
      }
    }
    const problem = rangeProblem(fromTs, toTs);
    if (problem) throw new Error(problem);
    const client = deps.connection.requireClient();
    const cost = blocksRangeNotice(toTs - fromTs, await deps.connection.requestsLeftThisMonth());
    deps.log.info(`Blocks in Time Range: ${cost.text}`);
    // A caller's range was not seen in a prompt: a costly one is said in a notice as reading starts.
    if (fromArguments && cost.worthSaying) void showInfo(inert`Blocks in Time Range: ${cost.text}`);
    // Long ranges are split by the client on 504, which can take many requests: show progress and let
    // the user cancel.
    const blocks = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Reading blocks from ${new Date(fromTs).toISOString()} to ${new Date(toTs).toISOString()} (${costText(blocksRangeCost(toTs - fromTs))})…`,
        cancellable: true,
      },
      async (_progress, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        try {
          return await client.getBlocks(fromTs, toTs, { signal: controller.signal });
        } catch (error) {
          if (token.isCancellationRequested) throw new UserCancelledError();
          throw error;
        } finally {
          sub.dispose();
        }
      },
    );
    const rows = blockRows(blocks);
    if (showDocument(args)) await showResult('Blocks in Time Range', blocksTable(fromTs, toTs, rows), 'text');
    return { fromTs, toTs, blocks: rows };
  };

  return [
    registerCommand(deps, CommandIds.addressInfo, addressInfoCommand),
    registerCommand(deps, CommandIds.blocksInTimeRange, blocksInTimeRange),
  ];
}
