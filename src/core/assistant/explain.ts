/**
 * The explain tool: Explain Transaction's own core (core/debugging/transactionExplanation.ts) run through
 * the extension's one client under the `assistant` purpose; this file only turns its text into an
 * answer: each line inert and capped, the indentation kept, the whole capped.
 */
import { plainIndentedLine } from '../text/inert';
import { answer } from './answerText';

/** What makes an explanation cheaper than the command's figure (`EXPLAIN_COST`). */
export const EXPLAIN_CAVEAT = 'fewer once its details, its block and the gateway are known';

/** The longest line kept of an explanation (a call with many arguments is one line). */
const MAX_LINE_CHARS = 2000;

export function explanationAnswer(text: string): string {
  return answer(text.split('\n').map((line) => plainIndentedLine(line, MAX_LINE_CHARS)));
}
