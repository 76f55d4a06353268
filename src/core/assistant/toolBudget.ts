/**
 * What the language-model tools may spend together, per session, before they ask: a model that loops
 * (or is told to) would otherwise spend the month's quota one small, unconfirmed call at a time. Each
 * call is counted at its stated upper bound (the cost said in its invocation message) over a sliding
 * window; a call that would go past the budget asks the user through the tool confirmation, and runs
 * only if the user allowed that very call.
 */
import { costText, type RequestCost } from '../usage/costs';

/** Requests the tools may spend in one window without asking. */
export const TOOL_BUDGET_REQUESTS = 50;
/** The window the budget is counted over. */
export const TOOL_BUDGET_WINDOW_MS = 10 * 60_000;
/** A confirmation not followed by its call is forgotten after this many (declined, or never invoked). */
const MAX_PENDING_APPROVALS = 20;

interface Spend {
  readonly at: number;
  readonly requests: number;
}

export class ToolSessionBudget {
  private readonly spends: Spend[] = [];
  /** Calls the user allowed past the budget, by `callKey`, with when they were asked. */
  private readonly approved = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    readonly limit = TOOL_BUDGET_REQUESTS,
    readonly windowMs = TOOL_BUDGET_WINDOW_MS,
  ) {}

  /** Requests spent in the current window. */
  spent(): number {
    const since = this.now() - this.windowMs;
    while (this.spends.length > 0 && this.spends[0]!.at <= since) this.spends.shift();
    return this.spends.reduce((n, s) => n + s.requests, 0);
  }

  /** Whether a call of this cost goes past the budget, so that it must ask first. */
  exceeds(cost: RequestCost): boolean {
    return cost.max > 0 && this.spent() + cost.max > this.limit;
  }

  /** The confirmation's words for a call past the budget. */
  question(cost: RequestCost): string {
    return (
      `The Alephium tools have used ${this.spent()} of their ${this.limit} requests in the last ` +
      `${Math.round(this.windowMs / 60_000)} minutes; this call costs up to ${costText({ min: cost.max, max: cost.max })} more.`
    );
  }

  /** The tool confirmation for this call was shown: if the user allows it, the call may spend past the budget. */
  asked(key: string): void {
    this.approved.delete(key);
    this.approved.set(key, this.now());
    while (this.approved.size > MAX_PENDING_APPROVALS)
      this.approved.delete(this.approved.keys().next().value!);
  }

  /**
   * Spends a call's cost when it fits or the user was asked for it (the workbench runs a call only after
   * its confirmation was accepted); otherwise spends nothing and returns false: the call must not run.
   */
  spend(key: string, cost: RequestCost): boolean {
    const askedAt = this.approved.get(key);
    const wasAsked = askedAt !== undefined && askedAt > this.now() - this.windowMs;
    this.approved.delete(key);
    if (this.exceeds(cost) && !wasAsked) return false;
    if (cost.max > 0) this.spends.push({ at: this.now(), requests: cost.max });
    return true;
  }
}

/** What identifies one call between its confirmation and its run: the tool and its input, bounded. */
export function callKey(tool: string, input: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(input) ?? String(input);
  } catch {
    text = String(input);
  }
  return `${tool}\u0000${text.slice(0, 4000)}`;
}
