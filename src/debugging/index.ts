/** What other features may take from debugging: the failure explainer's VS Code side. */
export type { FailureReporter } from './debuggingFeature';
/** The artifact and source files a `ralph` launch names (the Contract Panel's Debug uses them too). */
export { launchFilesOf } from './launchFiles';
/** Starts a debug session of the extension's own configuration (its state's origin said, no workspace claim). */
export { startOwnDebugging } from './ralphDebugger';
