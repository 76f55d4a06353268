import type * as vscode from 'vscode';
import type { ArtifactRegistry } from '../../core/artifacts';
import { errorMessage } from '../../core/util/errors';
import {
  buildPanelModel,
  checkMethodForm,
  executionResult,
  failureResult,
  isExecutionView,
  isSimulationView,
  parseWebviewMessage,
  simulationResult,
  type TrackedStatus,
} from '../../core/contracts/panelModel';
import { contractAddressProblem } from '../../core/contracts/watching/watchList';
import { viewOnlyExecuteProblem } from '../../core/contracts/inputRules';
import { shortAddress } from '../../core/contracts/watching/rows';
import type { ExecuteRequest, ExecutionView, MethodCallRequest } from '../../core/contracts/actionViews';
import {
  CONTRACT_PANEL_VIEW_TYPE,
  type ContractPanelModel,
  type HostToWebviewMessage,
  type MethodFormInput,
  type MethodResultView,
  type PanelAction,
  type WebviewToHostMessage,
} from '../../core/contracts/panelProtocol';
import type { WebviewPage } from '../../platform/webview/host';
import { PanelHost, PanelManager } from '../../platform/webview/panelHost';
import type { Services } from '../../services';

/**
 * What the panel asks of Simulate and Execute (src/contracts/contractActionsCommands.ts, the shapes fixed
 * in src/core/contracts/actionViews.ts): the commands' own functions run through the command wrapper, so
 * the panel works as a keybinding would and needs no second copy of simulate, verify or sign.
 */
export interface ContractActions {
  simulate(request: MethodCallRequest): Promise<unknown>;
  execute(request: ExecuteRequest): Promise<unknown>;
  /** Starts VS Code's debugger on the method (the project's VM, the contract's state from the profile). */
  debug(request: MethodCallRequest): Promise<unknown>;
}

/** The Transactions view's tracker, which keeps following a tx after Execute returns. */
export interface TrackedStatuses {
  /** Fires when a tracked tx changes (its txId; undefined: the whole list). */
  readonly onDidChange: vscode.Event<string | undefined>;
  /** The status the Transactions view shows for a tx. */
  status(txId: string): TrackedStatus | undefined;
}

/**
 * The panel's services (the contracts service resolves a contract's artifact as the Watched Contracts view
 * does, drift included, and picks one); the Transactions view's status of a tx (it keeps tracking after
 * Execute returns); and Simulate and Execute, run as their commands run.
 */
export type ContractPanelDeps = Pick<Services, 'log' | 'redactor' | 'extensionUri' | 'contracts'> & {
  readonly statuses: TrackedStatuses;
  readonly actions: ContractActions;
};

/** What a panel showed: for the extension's API (tests), never anything secret. */
export interface ContractPanelSnapshot {
  readonly address: string;
  readonly html: string;
  readonly model?: ContractPanelModel;
  /** The page's own rendered text, reported back after each render. */
  readonly text?: string;
  /** Messages posted to the page, as JSON (the last 50). */
  readonly posted: readonly string[];
  /** The requests the panel sent to the commands, in order (the last 50). */
  readonly requests: readonly {
    readonly action: PanelAction;
    readonly request: MethodCallRequest;
  }[];
  /** A method is running. */
  readonly busy: boolean;
}

/** After this long the panel stops following a tx; the Transactions view still does. */
const TRACK_FOR_MS = 15 * 60_000;

const CONTRACT_PAGE: WebviewPage = { script: 'contractPanel', style: 'contractPanel', title: 'Contract' };

function addressFromState(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const address = (value as { address?: unknown }).address;
  return typeof address === 'string' && !contractAddressProblem(address) ? address.trim() : undefined;
}

/**
 * Owns the contract panels (one per contract address) and revives them after a reload. The HTML is a
 * shell with a strict CSP; the method list arrives by message and every form comes back as a message
 * that the host checks before anything runs.
 */
export class ContractPanels extends PanelManager<string, ContractPanel> {
  /** Loaded on first use (registration.ts registers the command and the serializer at activation). */
  constructor(readonly deps: ContractPanelDeps) {
    // Forms keep what was typed while the panel is in a background tab.
    super(CONTRACT_PANEL_VIEW_TYPE, deps.extensionUri, { retainContextWhenHidden: true }, false);
    // A recompiled artifact may add, remove or retype methods: forms must follow what will be called.
    this.register(
      deps.contracts.onDidChangeArtifacts(() => {
        for (const p of this.panels.values()) void p.load();
      }),
    );
  }

  /** Opens (or reveals) the panel of a contract and waits until its model is built. */
  async show(address: string): Promise<ContractPanel> {
    const problem = contractAddressProblem(address);
    if (problem) throw new Error(problem);
    const existing = this.panels.get(address);
    if (existing) {
      existing.reveal();
      await existing.load();
      return existing;
    }
    const host = this.adopt(this.createPanel(`Contract ${shortAddress(address)}`), address);
    await host.load();
    return host;
  }

  protected keyOfState(state: unknown): string | undefined {
    return addressFromState(state);
  }

  protected async revive(panel: vscode.WebviewPanel, address: string): Promise<void> {
    await this.adopt(panel, address).load();
  }

  get(address: string): ContractPanel | undefined {
    return this.panels.get(address);
  }

  snapshot(address?: string): ContractPanelSnapshot | undefined {
    const panel = address ? this.panels.get(address) : [...this.panels.values()].at(-1);
    return panel?.snapshot();
  }

  private adopt(panel: vscode.WebviewPanel, address: string): ContractPanel {
    // Delete-then-set keeps the map's order "most recently opened last" for snapshot().
    const host = new ContractPanel(panel, address, this);
    this.panels.delete(address);
    this.panels.set(address, host);
    return host;
  }
}

/** One contract's panel: its model, the message handling, and the runs of Simulate and Execute. */
export class ContractPanel extends PanelHost<HostToWebviewMessage, WebviewToHostMessage> {
  private model: ContractPanelModel | undefined;
  private registry: ArtifactRegistry | undefined;
  private text: string | undefined;
  private running = false;
  private readonly requests: { action: PanelAction; request: MethodCallRequest }[] = [];
  private readonly results = new Map<number, MethodResultView>();
  private readonly followers = new Set<vscode.Disposable>();

  constructor(
    panel: vscode.WebviewPanel,
    readonly address: string,
    private readonly manager: ContractPanels,
  ) {
    // No chain or artifact data in the HTML: the page receives the model by message and renders text
    // nodes only. The address is in the page's state (set by the page from the model) for revival.
    super(panel, {
      extensionUri: manager.deps.extensionUri,
      page: CONTRACT_PAGE,
      parse: parseWebviewMessage,
    });
    this.register({
      dispose: () => {
        for (const f of [...this.followers]) f.dispose();
      },
    });
  }

  protected override panelClosed(): void {
    this.manager.forget(this.address, this);
  }

  snapshot(): ContractPanelSnapshot {
    return {
      address: this.address,
      html: this.html,
      ...(this.model ? { model: this.model } : {}),
      ...(this.text !== undefined ? { text: this.text } : {}),
      posted: [...this.posted],
      requests: [...this.requests],
      busy: this.running,
    };
  }

  /** Builds the model from the artifact the Watched Contracts view uses for this address, and posts it. */
  async load(): Promise<void> {
    const deps = this.manager.deps;
    try {
      const resolved = await deps.contracts.resolve(this.address);
      const registry = await deps.contracts.registry();
      if (this.isDisposed) return;
      this.registry = registry;
      this.model = buildPanelModel({
        address: this.address,
        ...(resolved.artifact ? { artifact: resolved.artifact } : {}),
        ...(resolved.drift ? { drift: resolved.drift } : {}),
      });
      this.panel.title = `${this.model.artifactName ?? 'Contract'} ${shortAddress(this.address)}`;
      this.post({ type: 'model', model: this.model });
      for (const [method, result] of this.results) this.post({ type: 'result', method, result });
    } catch (error) {
      const message = deps.redactor.redact(errorMessage(error));
      deps.log.warn(`Contract panel of ${this.address}: ${message}`);
      this.post({ type: 'error', message });
    }
  }

  /** The page (re)loaded: it gets the model and the results it showed. */
  protected async pageReady(): Promise<void> {
    if (!this.model) return this.load();
    this.post({ type: 'model', model: this.model });
    for (const [method, result] of this.results) this.post({ type: 'result', method, result });
  }

  /**
   * The page's other messages, parsed and bounded by the core first (panelHost.ts). A form is checked
   * again on this side (the page's checks are a courtesy) and only a clean one reaches a command.
   */
  protected async received(message: WebviewToHostMessage): Promise<void> {
    switch (message.type) {
      case 'rendered':
        this.text = message.text;
        return;
      case 'simulate':
      case 'execute':
        await this.run(message.type, message.form);
        return;
      case 'debug':
        await this.debug(message.form);
        return;
    }
  }

  /**
   * Debug: the form is checked as Simulate's is, then the debugger takes the method over (the Debug view
   * and the editor show the run); the panel keeps its results and says in a line what it started.
   */
  private async debug(form: MethodFormInput): Promise<void> {
    const checked = this.checkedForm('debug', form);
    if (!checked) return;
    const method = this.model?.methods.find((m) => m.index === form.method)?.name ?? `#${form.method}`;
    let note: string;
    this.running = true;
    this.post({ type: 'busy', method: form.method, action: 'debug' });
    try {
      const started = (await this.manager.deps.actions.debug(checked)) as { started?: boolean } | undefined;
      note =
        started?.started === true
          ? `Debugging ${method} in VS Code's debugger (the project's VM, the contract's state from the profile).`
          : `The debugger did not start ${method}: see the notification or the log.`;
    } catch (error) {
      note = `The debugger did not start ${method}: ${this.manager.deps.redactor.redact(errorMessage(error))}`;
    } finally {
      this.running = false;
    }
    this.post({ type: 'debugged', method: form.method, note });
  }

  /** A form checked for a run (the model loaded, nothing running, every field valid), or undefined. */
  private checkedForm(action: PanelAction, form: MethodFormInput): MethodCallRequest | undefined {
    if (!this.model) {
      // The page only offers forms of a model it received, so this is a revived or replayed page: say so
      // rather than leave its buttons waiting for an answer.
      this.post({
        type: 'fieldErrors',
        method: form.method,
        errors: { form: "The contract's methods are still loading; try again in a moment." },
      });
      return undefined;
    }
    if (this.running) {
      // One run at a time: a second Execute while a confirmation is open would stack modals.
      this.post({
        type: 'fieldErrors',
        method: form.method,
        errors: { form: 'Another method of this contract is running; wait for it to finish.' },
      });
      return undefined;
    }
    const method = this.model.methods.find((m) => m.index === form.method);
    const getterRefusal =
      action === 'execute'
        ? viewOnlyExecuteProblem(
            method?.name ?? '?',
            method?.viewOnly === true,
            form.viewOnlyAsTransaction === true,
          )
        : undefined;
    if (getterRefusal !== undefined) {
      this.post({ type: 'fieldErrors', method: form.method, errors: { form: getterRefusal } });
      return undefined;
    }
    const checked = checkMethodForm(this.model, form, this.registry);
    if (!checked.ok) {
      this.post({ type: 'fieldErrors', method: form.method, errors: checked.errors });
      return undefined;
    }
    this.post({ type: 'fieldErrors', method: form.method, errors: {} });
    this.requests.push({ action, request: checked.request });
    if (this.requests.length > 50) this.requests.splice(0, this.requests.length - 50);
    return checked.request;
  }

  private async run(action: 'simulate' | 'execute', form: MethodFormInput): Promise<void> {
    const deps = this.manager.deps;
    const request = this.checkedForm(action, form);
    if (!request) return;
    this.running = true;
    this.post({ type: 'busy', method: form.method, action });
    let result: MethodResultView;
    try {
      if (action === 'simulate') {
        const view = await deps.actions.simulate(request);
        if (!isSimulationView(view)) throw new Error('the simulate command returned no result');
        result = simulationResult(view);
      } else {
        const view = await deps.actions.execute(request);
        // A command ends quietly (undefined) when the user dismissed one of its prompts.
        result =
          view === undefined
            ? {
                ...failureResult('execution', 'cancelled'),
                outcome: 'cancelled',
                headline: 'Not executed: cancelled before signing',
              }
            : isExecutionView(view)
              ? executionResult(view, view.txId ? deps.statuses.status(view.txId) : undefined)
              : failureResult('execution', 'the execute command returned no result');
        if (view !== undefined && isExecutionView(view)) this.follow(form.method, view);
      }
    } catch (error) {
      const message = deps.redactor.redact(errorMessage(error));
      deps.log.warn(`Contract panel ${action} of ${this.address}: ${message}`);
      result = failureResult(action === 'simulate' ? 'simulation' : 'execution', message);
    } finally {
      this.running = false;
    }
    this.results.set(form.method, result);
    this.post({ type: 'result', method: form.method, result });
  }

  /**
   * A submitted tx keeps its row in the Transactions view, whose tracker polls the gateway. The panel
   * follows that tracker's change event (in memory, no request) and re-renders when the status text
   * changes, until final.
   */
  private follow(method: number, view: ExecutionView): void {
    const txId = view.txId;
    if (view.status !== 'submitted' || !txId) return;
    const { statuses: tracked } = this.manager.deps;
    const started = Date.now();
    let lastText: string | undefined = tracked.status(txId)?.text;
    const following: vscode.Disposable = {
      dispose: () => {
        listener.dispose();
        clearTimeout(deadline);
        this.followers.delete(following);
      },
    };
    const listener = tracked.onDidChange((changed) => {
      if (changed !== undefined && changed.toLowerCase() !== txId.toLowerCase()) return;
      const status = tracked.status(txId);
      const done = status?.kind === 'confirmed' || status?.kind === 'failed';
      // A later run of the same method replaced the result: it is no longer this tx's to update.
      const shown = this.results.get(method);
      if (shown?.kind !== 'execution' || shown.txId !== txId) {
        following.dispose();
        return;
      }
      if (status && status.text !== lastText) {
        lastText = status.text;
        const result = executionResult(view, status);
        this.results.set(method, result);
        this.post({ type: 'result', method, result });
      }
      if (done || Date.now() - started > TRACK_FOR_MS || this.isDisposed) following.dispose();
    });
    // After TRACK_FOR_MS the panel lets go even if the tracker never speaks again.
    const deadline = setTimeout(() => {
      following.dispose();
    }, TRACK_FOR_MS);
    this.followers.add(following);
  }
}
