/**
 * The explain tool: Explain Transaction's own core (core/debugging/explainTransaction.ts) run through
 * the extension's one client under the `assistant` purpose; this file only turns its text into an
 * answer: each line inert and capped, the indentation kept, the whole capped.
 */
import type { RequestCost } from '../ledger/costs';
import { EXPLAIN_COST } from '../debugging/explainTransaction';
import { answer, chainValue } from './answerText';

/** What an explanation costs (the command's figure), and what makes it cheaper. */
export const EXPLAIN_TOOL_COST: RequestCost = EXPLAIN_COST;
export const EXPLAIN_CAVEAT = 'fewer once its details, its block and the gateway are known';

/** The longest line kept of an explanation (a call with many arguments is one line). */
const MAX_LINE_CHARS = 2000;

export function explanationAnswer(text: string): string {
  const lines = text.split('\n').map((line) => {
    const indent = Math.min(8, line.length - line.trimStart().length);
    return `${' '.repeat(indent)}${chainValue(line, MAX_LINE_CHARS)}`;
  });
  return answer(lines);
}
