/**
 * The extension's services: built once, in extension.ts, and received by every feature. A feature's
 * parameter type is this record narrowed with `Pick` to the services it may touch, plus what only it is
 * given (its view, its lazily loaded panels), so a signature says what a feature reaches and a service is
 * never passed twice or under two names.
 */
import type * as vscode from 'vscode';
import type { Logger } from './core/util/log';
import type { Redactor } from './core/util/redact';
import type { ConnectionManager } from './platform/connection';
import type { SecretStore } from './platform/secrets';
import type { WorkspaceProjects } from './platform/workspaceProjects';
import type { ContractsService, WorkspaceArtifacts } from './contracts';
import type { FailureReporter } from './debugging';
import type { TrackedTransactions } from './transactions';

export interface Services {
  /** The "Alephium Gateway" output channel, through the redactor. */
  readonly log: Logger;
  /** Masks every registered secret; every message shown to the user goes through `redactor.redact`. */
  readonly redactor: Redactor;
  /** The active profile's gateway client, its token catalog, and the requests' ledger. */
  readonly connection: ConnectionManager;
  /** API keys and the signer key, in SecretStorage. */
  readonly secrets: SecretStore;
  /** The workspace's alephium.config.* files, read on first use. */
  readonly projects: WorkspaceProjects;
  /** The one artifacts service: every view names contracts, methods and events from it. */
  readonly artifacts: WorkspaceArtifacts;
  /** The watch list, its model and watcher, and the one rule that resolves a contract's artifact. */
  readonly contracts: ContractsService;
  /** VM failures at their Ralph line and debug messages at their emit (Problems view). */
  readonly failures: FailureReporter;
  /** The Transactions view's store: every signed or tracked tx, followed until it is final. */
  readonly tracked: TrackedTransactions;
  /** Where the webviews' scripts and the media are. */
  readonly extensionUri: vscode.Uri;
  /** Per-user state (notices shown once); per-workspace state (the watch list, the tracked txs). */
  readonly globalState: vscode.Memento;
  readonly workspaceState: vscode.Memento;
}
