/**
 * A stand-in for the `vscode` module, for unit tests of the thin glue that only registers, prompts and
 * shows (the command wrapper, a status-bar menu). It records what the glue asked VS Code to do, and each
 * test says what the user answers. Installed once per process: modules loaded after {@link installFakeVscode}
 * keep this object, so tests change its behaviour through {@link FakeVscode.reset} and its fields, never
 * by replacing it.
 */
import Module from 'node:module';

type Handler = (...args: unknown[]) => unknown;

export interface ShownMessage {
  readonly level: 'error' | 'warning' | 'info';
  readonly text: string;
  readonly actions: readonly string[];
}

export interface FakeVscode {
  /** The handlers passed to `commands.registerCommand`, by id (what VS Code would run). */
  readonly registered: Map<string, Handler>;
  /** Each `commands.executeCommand` call, in order. */
  readonly executed: { id: string; args: unknown[] }[];
  /** Each notification shown, in order. */
  readonly shown: ShownMessage[];
  /** What the user answers to a quick pick's items (an item, or undefined for Escape); default Escape. */
  quickPick: (items: readonly unknown[]) => Promise<unknown>;
  /** Forgets what was recorded and answers Escape again. */
  reset(): void;
}

const registered = new Map<string, Handler>();
const executed: FakeVscode['executed'] = [];
const shown: ShownMessage[] = [];

export const fakeVscode: FakeVscode = {
  registered,
  executed,
  shown,
  quickPick: () => Promise.resolve(undefined),
  reset() {
    registered.clear();
    executed.length = 0;
    shown.length = 0;
    this.quickPick = () => Promise.resolve(undefined);
  },
};

type Listener = (value?: unknown) => void;

/**
 * `window.createQuickPick`'s pick as src/platform/prompts.ts drives it: once shown and its items loaded (not
 * busy), {@link FakeVscode.quickPick} answers with an item (accepted) or undefined (Escape: hidden).
 */
class FakeQuickPick {
  items: readonly unknown[] = [];
  selectedItems: readonly unknown[] = [];
  activeItems: readonly unknown[] = [];
  busy = false;
  enabled = true;
  title?: string;
  placeholder?: string;
  ignoreFocusOut = false;
  matchOnDescription = false;
  matchOnDetail = false;
  private readonly listeners = { accept: [] as Listener[], hide: [] as Listener[], value: [] as Listener[] };
  private visible = false;

  onDidAccept = (l: Listener) => this.on('accept', l);
  onDidHide = (l: Listener) => this.on('hide', l);
  onDidChangeValue = (l: Listener) => this.on('value', l);

  show(): void {
    if (this.visible) return;
    this.visible = true;
    void this.answer();
  }

  hide(): void {
    if (!this.visible) return;
    this.visible = false;
    for (const l of this.listeners.hide) l();
  }

  dispose(): void {
    this.hide();
  }

  private on(kind: keyof FakeQuickPick['listeners'], l: Listener): { dispose(): void } {
    this.listeners[kind].push(l);
    return { dispose: () => undefined };
  }

  /** The user answers once the items are there (a bounded wait: a list that never loads is Escape). */
  private async answer(): Promise<void> {
    for (let turn = 0; this.busy && turn < 1000; turn++) await new Promise((r) => setImmediate(r));
    const chosen = this.busy ? undefined : await fakeVscode.quickPick(this.items);
    if (!this.visible) return;
    if (chosen === undefined) return this.hide();
    this.selectedItems = [chosen];
    for (const l of this.listeners.accept) l();
  }
}

function message(level: ShownMessage['level']) {
  return (text: string, ...rest: unknown[]): Promise<string | undefined> => {
    shown.push({ level, text, actions: rest.filter((r): r is string => typeof r === 'string') });
    return Promise.resolve(undefined);
  };
}

/** The parts of the API the glue under test touches; anything else is absent, so a new use fails loudly. */
const api = {
  // Read when src/platform/prompts.ts loads.
  InputBoxValidationSeverity: { Info: 1, Warning: 2, Error: 3 },
  commands: {
    registerCommand(id: string, handler: Handler) {
      if (registered.has(id)) throw new Error(`command '${id}' already exists`);
      registered.set(id, handler);
      return { dispose: () => registered.delete(id) };
    },
    executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
      executed.push({ id, args });
      return Promise.resolve(registered.get(id)?.(...args));
    },
  },
  window: {
    createQuickPick: () => new FakeQuickPick(),
    showErrorMessage: message('error'),
    showWarningMessage: message('warning'),
    showInformationMessage: message('info'),
  },
  workspace: {
    getConfiguration: () => ({ get: () => undefined }),
  },
};

let installed = false;

/** Makes `require('vscode')` return the fake from now on (idempotent). */
export function installFakeVscode(): FakeVscode {
  if (!installed) {
    const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
    const load = loader._load;
    loader._load = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? api : load.call(this, request, ...rest);
    };
    installed = true;
  }
  return fakeVscode;
}
