import * as vscode from 'vscode';
import { withProgress } from '../platform/progress';
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
  type RangeReading,
  type TimeRangePreset,
} from '../core/node/nodeQueries';
import { mergeBlocks, type BlocksPart } from '../core/gateway/blocksRange';
import type { Blocks } from '../core/gateway/schemas';
import { errorMessage, UserCancelledError } from '../core/util/errors';
import { blocksRangeCost, blocksRangeNotice, costText } from '../core/usage/costs';
import { inert } from '../core/text/inert';
import { inertCheck, inertProblem } from '../core/text/inertInput';
import { showInfo } from '../platform/notify';
import type { Services } from '../services';
import { CommandIds } from '../constants';
import type { CommandTable } from '../platform/commands';
import { argString, argValue, askText, pick } from '../platform/prompts';
import { showLiveResult, showResult, type LiveResult } from '../platform/resultsDocument';

export type NodeCommandDeps = Pick<Services, 'log' | 'redactor' | 'connection'>;

export interface BlocksInTimeRangeResult {
  readonly fromTs: number;
  readonly toTs: number;
  readonly blocks: BlockRow[];
  /** Set when reading stopped before the end: the span not read and why. */
  readonly unread?: RangeReading['unread'];
}

/**
 * The range's tab while its parts are read: opened with the first part that is not the last, refreshed
 * in place at most twice a second (re-rendering the whole table on each part of a split day would be
 * quadratic), and given the final table by `finish`, in the same tab.
 */
class ProgressiveBlocks {
  private readonly parts: Blocks[] = [];
  private lastShown = 0;
  private readTo: number | undefined;
  private live: Promise<LiveResult | undefined> | undefined;

  constructor(
    private readonly fromTs: number,
    private readonly toTs: number,
  ) {}

  add(part: BlocksPart): void {
    this.parts.push(part.blocks);
    this.readTo = part.toTs;
    if (part.toTs >= this.toTs || Date.now() - this.lastShown < 500) return;
    this.lastShown = Date.now();
    const rows = blockRows(mergeBlocks(this.parts));
    const table = blocksTable(this.fromTs, this.toTs, rows, { readTo: part.toTs });
    if (this.live) void this.live.then((live) => live?.update(table));
    else this.live = showLiveResult('Blocks in Time Range', table, 'text').catch(() => undefined);
  }

  /** Reading failed or was cancelled: an open tab says what it shows instead of "still reading". */
  async stop(reason: string): Promise<void> {
    const live = await this.live;
    if (!live || this.readTo === undefined) return;
    const rows = blockRows(mergeBlocks(this.parts));
    live.update(
      blocksTable(this.fromTs, this.toTs, rows, {
        unread: { fromTs: this.readTo + 1, toTs: this.toTs, reason },
      }),
    );
  }

  async finish(table: string): Promise<void> {
    const live = await this.live;
    if (live) live.update(table);
    else await showResult('Blocks in Time Range', table, 'text');
  }
}

function showDocument(args: unknown): boolean {
  return argString(args, 'show') !== 'none';
}

/** `Alephium: Address Info`: an address's balance, tokens named where known, and its group. */
async function addressInfoCommand(deps: NodeCommandDeps, args?: unknown): Promise<AddressInfo> {
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
}

async function blocksInTimeRange(deps: NodeCommandDeps, args?: unknown): Promise<BlocksInTimeRangeResult> {
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
  // Long or dense ranges are read in parts (split on 504 and on size), which can take many requests:
  // show progress, let the user cancel, and show the blocks as the parts arrive.
  const shown = showDocument(args) ? new ProgressiveBlocks(fromTs, toTs) : undefined;
  const read = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Reading blocks from ${new Date(fromTs).toISOString()} to ${new Date(toTs).toISOString()} (${costText(blocksRangeCost(toTs - fromTs))})`,
      cancellable: true,
    },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        return await client.readBlocks(fromTs, toTs, {
          signal: controller.signal,
          onPart: (part) => {
            progress.report({ message: `read up to ${new Date(part.toTs).toISOString()}` });
            shown?.add(part);
          },
        });
      } catch (error) {
        await shown?.stop(token.isCancellationRequested ? 'cancelled' : errorMessage(error));
        if (token.isCancellationRequested) throw new UserCancelledError();
        throw error;
      } finally {
        sub.dispose();
      }
    },
  );
  const rows = blockRows(read.blocks);
  const unread = read.unread && {
    fromTs: read.unread.fromTs,
    toTs: read.unread.toTs,
    reason: errorMessage(read.unread.reason),
  };
  deps.log.info(
    `Blocks in Time Range: ${rows.length} block(s) in ${read.requests} request(s)${unread ? `; not read from ${unread.fromTs}: ${unread.reason}` : ''}`,
  );
  const table = blocksTable(fromTs, toTs, rows, unread ? { unread } : undefined);
  await shown?.finish(table);
  return { fromTs, toTs, blocks: rows, ...(unread ? { unread } : {}) };
}

/**
 * `Alephium: Address Info` and `Alephium: Blocks in Time Range`, loaded on the first run of one of them
 * (node/index.ts registers the ids at activation). Both return their result to callers.
 */
export const NODE_COMMANDS: CommandTable<NodeCommandDeps> = [
  [CommandIds.addressInfo, addressInfoCommand],
  [CommandIds.blocksInTimeRange, blocksInTimeRange],
];
