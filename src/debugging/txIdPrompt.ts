/** The transaction id a command runs on: a row's (`{ txId }`), or typed and checked before any request. */
import { checkTxId, parseTxId } from '../core/transactions/transferInput';
import { inert } from '../core/text/inert';
import { inertCheck } from '../core/text/inertInput';
import { argString, askText } from '../platform/prompts';

export async function askTxId(
  args: unknown,
  title: 'Explain Transaction' | 'Debug Transaction',
  costText: string,
): Promise<string> {
  const given = argString(args, 'txId');
  if (given !== undefined) return parseTxId(given);
  const typed = await askText({
    title: inert`${title}`,
    prompt: inert`The transaction id (64 hex digits). ${costText}`,
    placeHolder: inert`e.g. 3f2a…`,
    validate: inertCheck(checkTxId),
  });
  return parseTxId(typed);
}
