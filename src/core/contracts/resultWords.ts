/**
 * What a Simulate or Execute started from the palette or a lens says when it is done: a command that
 * succeeds says so, in one sentence, with what the person would look for next (returns and gas; the
 * block or the submission, the fee, the events). The contract panel shows its own result instead.
 */
import { shortTxId } from '../protocol';
import type { ExecutionView, SimulationView } from './actionViews';

/** The sentence for a dry run that succeeded; undefined for a failure (Problems and the error toast say it). */
export function simulationWords(view: SimulationView): string | undefined {
  if (!view.ok) return undefined;
  const returns = view.returns.map((r) => `${r.name} = ${r.value}`).join(', ') || 'no returns';
  return `Simulated ${view.contract}.${view.method}: ${returns}; gas ${view.gasUsed ?? '?'}; ${view.events.length} event(s). Nothing was signed.`;
}

/** The sentence for an execution, and whether it is a warning (the script failed in its block). */
export function executionWords(view: ExecutionView): { readonly text: string; readonly warning: boolean } {
  const what = `${view.simulation.contract}.${view.simulation.method}`;
  const tx = view.txId ? ` (tx ${shortTxId(view.txId)})` : '';
  const fee = view.feeAlph !== undefined ? `; fee ${view.feeAlph} ALPH` : '';
  switch (view.status) {
    case 'confirmed':
      return {
        text: `Executed ${what}${tx}: in a block${fee}; ${view.events?.length ?? 0} event(s).`,
        warning: false,
      };
    case 'submitted':
      return {
        text: `Executed ${what}${tx}: submitted${fee}; not in a block yet, the Transactions view follows it.`,
        warning: false,
      };
    default:
      return { text: `${what}${tx} failed in its block: ${view.error ?? 'unknown reason'}`, warning: true };
  }
}
