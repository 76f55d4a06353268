/**
 * The parsing and explaining half of debugging in the editor, bundled apart (a chunk of dist/ of its own)
 * and loaded on first use through `loadEngine`: the activation bundle only carries the thin glue, and
 * nothing here is needed until a `.ral` file is shown or a call fails.
 */
export { scanRalph } from '../core/ralph/scanner';
export { RalphSourceMap } from '../core/ralph/sourceMap';
export { explainVmFailure, placeDebugMessages } from '../core/debugging/failureExplanation';
export { parseVmFailure } from '../core/debugging/vmError';
export { lensesFor } from '../core/debugging/lensModel';
export {
  planGasReport,
  gasReportRows,
  gasReportRecords,
  gasReportMarkdown,
  measuredCode,
} from '../core/debugging/gasReport';
export {
  EXPLAIN_COST,
  explainFetchersFrom,
  explainLookup,
  explainTransaction,
  explanationText,
  whatHappenedView,
} from '../core/debugging/transactionExplanation';
export { whatChanged } from '../core/debugging/whatChangedFlow';
