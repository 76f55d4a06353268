/** What other features may take from debugging: the failure explainer's VS Code side. */
export type { FailureReporter } from './debuggingFeature';
