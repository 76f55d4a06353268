import type { MonthlyUsage, RateHeadroom } from '../gateway';
import { joinMarkdown, safeMarkdown, markdownCode, plainText, type SafeMarkdown } from '../text/inert';

/** Everything the status bar shows, derived from one state value (tested without VS Code). */
export interface StatusBarInput {
  readonly profileName: string | undefined;
  readonly plan: string | undefined;
  /**
   * The profile's network name (mainnet, testnet, devnet, …), said beside the headroom: the one thing to
   * know before signing. Outside text (a workspace's settings may name it), so it is shown as plain text.
   */
  readonly network?: string;
  /** Whether this is mainnet (`isMainnet` of the confirmation policy decides): the item takes its colour. */
  readonly mainnet?: boolean;
  /** A node profile's host and port (`127.0.0.1:22973`): what is known where a gateway would have a plan. */
  readonly nodeHost?: string;
  readonly limitPerSecond: number | undefined;
  /** The latest headroom any response reported (the text shows it). */
  readonly headroom: RateHeadroom | undefined;
  /**
   * The user's own headroom in the current window: the limit less the user's own requests in it (see
   * `userHeadroomAfter`). Only this colours the item: background polling goes after user requests and
   * never takes the last slot of a window, so its bursts are no reason for a person to wait.
   */
  readonly userHeadroom?: RateHeadroom;
  /** When a request of the user's was last refused with 429 (background 429s do not colour the item). */
  readonly user429At?: number;
  /** While the client's quota lock holds: when the month renews (ms). */
  readonly quotaUntil?: number;
  readonly usage: MonthlyUsage | undefined;
  /**
   * Lines about this month's requests (by kind, a forecast) from the request ledger, shown after the
   * month's count. Already safe Markdown: the ledger escapes what it did not write.
   */
  readonly ledger?: readonly SafeMarkdown[];
  readonly lastError: { kind: string; message: string; at: number } | undefined;
  /** False when the profile needs an API key (a gateway profile) and none is stored. */
  readonly hasKey?: boolean;
  /**
   * What freshness the background budget buys, when it cannot give every contract the 16 s floor
   * (e.g. "10 contracts on Free: each every 6 min"); see `freshnessLine`.
   */
  readonly freshness?: string;
  readonly now: number;
}

export interface StatusBarView {
  readonly visible: boolean;
  readonly text: string;
  readonly severity: 'normal' | 'warning' | 'error';
  /**
   * The item's colour: its severity's, and on mainnet a colour of its own unless an error needs red.
   * (A status bar item may only take the error or the warning background, so mainnet takes the warning
   * one, and its text always says "mainnet".)
   */
  readonly colour: 'normal' | 'warning' | 'error' | 'mainnet';
  /** Markdown, with every outside value (the profile name, an error's text) escaped. */
  readonly tooltip: SafeMarkdown;
  /**
   * When the view changes by itself (the rate-limit window resets, a 429 warning expires): render again
   * then. Undefined when nothing changes until the next event.
   */
  readonly nextChangeAt?: number;
}

/** A 429 keeps the warning colour this long after it happened. */
const RECENT_429_MS = 60_000;

/** The user's own requests in one rate-limit window (the window is named by its reset time). */
export interface UserWindow {
  readonly resetAt: number;
  readonly count: number;
  readonly headroom: RateHeadroom;
}

/**
 * After a response to one of the user's own requests (`headroom`: what that response's headers said):
 * the user's requests in this window, and the headroom they leave the user. A response's own
 * `remaining` also counts the background's requests of the window, which are not the user's to wait for.
 */
export function userHeadroomAfter(previous: UserWindow | undefined, headroom: RateHeadroom): UserWindow {
  const count = previous?.resetAt === headroom.resetAt ? previous.count + 1 : 1;
  return {
    resetAt: headroom.resetAt,
    count,
    headroom: { ...headroom, remaining: Math.max(0, headroom.limit - count) },
  };
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A window's headroom as it is at `now`: whole again once its reset has passed. */
function headroomAt(h: RateHeadroom, now: number): { remaining: number; limit: number; current: boolean } {
  const current = h.resetAt > now;
  return { remaining: current ? h.remaining : h.limit, limit: h.limit, current };
}

function isLow(remaining: number, limit: number): boolean {
  return remaining <= Math.max(1, Math.floor(limit * 0.2));
}

function clock(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:${String(d.getSeconds()).padStart(2, '0')}`;
}

/** "Sandbox · devnet · ": the profile and its network before the headroom (once when they are one word). */
function whereText(input: StatusBarInput): string {
  if (input.network === undefined) return '';
  const profile = plainText(input.profileName, 24);
  const network = plainText(input.network, 32);
  return profile.toLowerCase() === network.toLowerCase() ? `${network} · ` : `${profile} · ${network} · `;
}

/** The item's colour for a severity: an error stays red on mainnet, anything else takes mainnet's. */
function colourOf(
  severity: StatusBarView['severity'],
  mainnet: boolean | undefined,
): StatusBarView['colour'] {
  return severity === 'error' || !mainnet ? severity : 'mainnet';
}

export function statusBarView(input: StatusBarInput): StatusBarView {
  const view = statusBarViewBySeverity(input);
  return { ...view, colour: colourOf(view.severity, input.mainnet) };
}

function statusBarViewBySeverity(input: StatusBarInput): Omit<StatusBarView, 'colour'> {
  if (!input.profileName) return { visible: false, text: '', severity: 'normal', tooltip: safeMarkdown`` };
  const now = input.now;
  const quotaUntil = input.quotaUntil !== undefined && input.quotaUntil > now ? input.quotaUntil : undefined;
  const lines: SafeMarkdown[] = [
    safeMarkdown`**Alephium Gateway**: profile ${markdownCode(input.profileName)}${input.network !== undefined ? safeMarkdown` on ${markdownCode(input.network)}` : safeMarkdown``}${input.plan ? safeMarkdown`, plan ${input.plan}` : safeMarkdown``}`,
  ];
  if (input.mainnet)
    lines.push(
      safeMarkdown`This is **mainnet**: transactions move real funds, and every signing asks twice.`,
    );
  if (input.nodeHost !== undefined && input.limitPerSecond === undefined)
    lines.push(
      safeMarkdown`A full node at ${markdownCode(input.nodeHost)}, without a gateway: requests are paced only if it announces a rate limit.`,
    );
  if (quotaUntil !== undefined)
    lines.push(
      safeMarkdown`The monthly quota of this API key is used up until ${day(quotaUntil)}: background polling pauses (one check a minute), and your next command is still sent, so this lifts as soon as the gateway answers again.`,
    );
  if (input.usage) {
    const limit =
      input.usage.limit !== undefined
        ? safeMarkdown` of ${input.usage.limit.toLocaleString('en-US')}`
        : safeMarkdown``;
    lines.push(safeMarkdown`This month: ${input.usage.count.toLocaleString('en-US')}${limit} requests`);
  }
  if (input.ledger) lines.push(...input.ledger);
  // One headroom for the text and the tooltip: past its reset the window is whole again, so neither
  // says "1/5 left, resets at" a time already gone.
  const shown = input.headroom ? headroomAt(input.headroom, now) : undefined;
  if (input.headroom && shown) {
    lines.push(
      shown.current
        ? safeMarkdown`Headroom: ${shown.remaining}/${shown.limit} requests left this second, window resets at ${clock(input.headroom.resetAt)}`
        : safeMarkdown`Headroom: ${shown.limit}/${shown.limit} requests per second (the last window has reset)`,
    );
  }
  if (input.freshness)
    lines.push(safeMarkdown`Background polling within the monthly share: ${input.freshness}`);
  if (input.lastError)
    lines.push(safeMarkdown`Last error (${clock(input.lastError.at)}): ${input.lastError.message}`);
  if (input.hasKey === false)
    lines.push(safeMarkdown`No API key is stored for this profile: run "Alephium: Set API Key".`);
  lines.push(
    safeMarkdown``,
    input.mainnet
      ? safeMarkdown`On mainnet the item keeps its highlight; the text says when your own requests are near a limit (the per-second window, a 429, or 90 % of the month).`
      : safeMarkdown`Yellow means your own requests are near a limit (the per-second window, a 429, or 90 % of the month); the extension's background polling never takes the last slot and does not colour it.`,
    safeMarkdown`Click for actions: switch profile, set API key, show logs.`,
  );
  const tooltip = joinMarkdown(lines);

  if (input.hasKey === false) {
    return {
      visible: true,
      text: `$(key) Alephium: ${whereText(input)}no API key`,
      severity: 'warning',
      tooltip,
    };
  }
  if (quotaUntil !== undefined) {
    return {
      visible: true,
      text: `$(error) Alephium: ${whereText(input)}quota used up until ${day(quotaUntil)}`,
      severity: 'error',
      tooltip,
      nextChangeAt: quotaUntil,
    };
  }
  if (input.lastError?.kind === 'unauthorized') {
    return {
      visible: true,
      text: `$(error) Alephium: ${whereText(input)}API key rejected`,
      severity: 'error',
      tooltip,
    };
  }
  const changes: number[] = [];
  const recent429 = input.user429At !== undefined && now - input.user429At < RECENT_429_MS;
  if (recent429) changes.push(input.user429At + RECENT_429_MS);
  const user = input.userHeadroom ? headroomAt(input.userHeadroom, now) : undefined;
  const userLow = user !== undefined && user.current && isLow(user.remaining, user.limit);
  if (user?.current) changes.push(input.userHeadroom!.resetAt);
  if (shown?.current) changes.push(input.headroom!.resetAt);
  const monthlyLow = input.usage?.fraction !== undefined && input.usage.fraction >= 0.9;
  const severity = recent429 || userLow || monthlyLow ? 'warning' : 'normal';
  const nextChangeAt = changes.length ? Math.min(...changes) : undefined;
  const where = whereText(input);
  const text = !shown
    ? `$(pulse) Alephium: ${where}${input.limitPerSecond !== undefined ? `${input.limitPerSecond}/s` : input.nodeHost !== undefined ? `node ${plainText(input.nodeHost, 64)}` : 'no limit known'}`
    : shown.current
      ? `$(pulse) Alephium: ${where}${shown.remaining}/${shown.limit} req/s · resets ${clock(input.headroom!.resetAt)}`
      : `$(pulse) Alephium: ${where}${shown.limit}/${shown.limit} req/s`;
  return {
    visible: true,
    text,
    severity,
    tooltip,
    ...(nextChangeAt !== undefined ? { nextChangeAt } : {}),
  };
}
