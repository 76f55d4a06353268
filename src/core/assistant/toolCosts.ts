/**
 * What each language-model tool costs in requests, said in its invocation message before it runs, and
 * whether that cost is worth a confirmation: the same threshold the commands use (`worthSaying`, more
 * than a few requests). Whether the confirmation may be skipped is not decided here: the glue passes
 * the answer of the one owner of that rule (platform/automation.ts, `argumentsMayActForUser`).
 */
import { LATEST_EVENTS_CAVEAT, costNotice, type RequestCost } from '../usage/costs';
import { MAX_MULTICALL } from '../gateway/requests';

/**
 * The contract's state (one request, read fresh), then its getters through multicalls of up to 20: none
 * when no artifact describes it, or when its code turns out to differ from the artifact's.
 */
export function contractStateCost(getters: number): RequestCost {
  return { min: 1, max: 1 + Math.ceil(Math.max(0, getters) / MAX_MULTICALL) };
}

/** What the events' cost (`latestEventsCost`, as Show Latest Events counts) means, in its words. */
export const RECENT_EVENTS_CAVEAT = LATEST_EVENTS_CAVEAT;

/** Decoding is local: the bytes are what a signature would commit to, and no gateway is asked. */
export const DECODE_COST: RequestCost = { min: 0, max: 0 };

export interface PreparedInvocationText {
  /** Shown while the tool runs: what it does and what it costs. */
  readonly invocationMessage: string;
  /** Present when the cost is worth a question and the run may not skip it. */
  readonly confirmation?: { readonly title: string; readonly message: string };
}

/**
 * The invocation message always carries the cost; a confirmation is asked only when the cost is more
 * than a few requests and the run's arguments may not act for the user (only the extension's own tests).
 */
export function preparedInvocation(
  what: string,
  cost: RequestCost,
  argumentsMayActForUser: boolean,
  extra: {
    readonly monthLeft?: number;
    readonly caveat?: string;
    /** Set when the call goes past the tools' session budget (`ToolSessionBudget.question`): it asks. */
    readonly overBudget?: string;
  } = {},
): PreparedInvocationText {
  const plain = costNotice(what, cost, extra.monthLeft);
  const notice = extra.caveat ? { ...plain, text: plain.text.replace(/\.$/, ` (${extra.caveat}).`) } : plain;
  const invocationMessage = `${notice.text}${cost.max === 0 ? ' Nothing is sent to the gateway.' : ''}`;
  if ((!notice.worthSaying && extra.overBudget === undefined) || argumentsMayActForUser)
    return { invocationMessage };
  return {
    invocationMessage,
    confirmation: {
      title: `Alephium: ${what}?`,
      message: `${extra.overBudget !== undefined ? `${extra.overBudget} ` : ''}${notice.text} They count against your API key's rate and monthly limits.`,
    },
  };
}

/** What an invalid input prepares: no request will be sent, the tool will say what is wrong. */
export function invalidInputInvocation(problem: string): PreparedInvocationText {
  return { invocationMessage: `Invalid input, no request is sent: ${problem}` };
}
