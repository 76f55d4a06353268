/**
 * Debug this failure (issue 31), decided in one place for the Problem's quick fix and the failure's toast.
 * Its own module: the toast is raised at activation's side, the failure explainer loads later.
 */
import type { FailureContext } from './failureExplanation';

/**
 * The call of a failure that the Ralph debugger can run again (Debug this failure): its contract, its
 * method and the arguments as typed; undefined when the failure came from a tracked transaction (that
 * one is replayed by its id) or its arguments are not the typed strings.
 */
export function debuggableCall(
  context: FailureContext,
): { readonly address: string; readonly method: string; readonly args: readonly string[] } | undefined {
  const { address, method, args } = context;
  if (context.txId || !address || !method || !args?.every((a): a is string => typeof a === 'string'))
    return undefined;
  return { address, method, args };
}
