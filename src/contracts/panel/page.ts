// Browser code of the contract panel. Every string from the artifact, the chain or the host is set with
// textContent (never innerHTML), and no handler is inline: the CSP allows only this nonce'd script. The
// page checks nothing that matters: the host checks every form again before anything runs.
import type {
  ContractPanelModel,
  ContractPanelState,
  FieldErrors,
  HostToWebviewMessage,
  MethodFormInput,
  MethodResultView,
  MethodView,
  PanelAction,
  WebviewToHostMessage,
} from '../../core/contracts/panelProtocol';
import { el, pageRoot, vsCodeApi } from '../../platform/webview/page';

const vscode = vsCodeApi<WebviewToHostMessage, ContractPanelState>();
const root = pageRoot();

let model: ContractPanelModel | undefined;
/** What was typed, by `<method>:<field>`, so a re-posted model does not wipe the forms. */
const typed = new Map<string, string>();
/** Token rows per method (at least one, possibly empty). */
const tokenRows = new Map<number, number>();
const results = new Map<number, MethodResultView>();
const errors = new Map<number, FieldErrors>();
/** The method whose run is under way (sent or confirmed by the host), and which action. */
let running: { method: number; action: PanelAction } | undefined;
/** A line under a method's buttons: what the last Debug did. */
const debugNotes = new Map<number, string>();

function table(headers: string[], rows: string[][], parent: HTMLElement): void {
  const t = el('table');
  const head = el('thead');
  const hr = el('tr');
  for (const h of headers) hr.append(el('th', undefined, h));
  head.append(hr);
  const body = el('tbody');
  for (const row of rows) {
    const tr = el('tr');
    for (const cell of row) tr.append(el('td', 'mono', cell));
    body.append(tr);
  }
  t.append(head, body);
  parent.append(t);
}

function input(method: number, field: string, label: string, placeholder: string): HTMLElement {
  const wrap = el('label', 'field');
  wrap.append(el('span', 'label', label));
  const box = el('input');
  box.type = 'text';
  box.spellcheck = false;
  box.placeholder = placeholder;
  box.dataset.field = field;
  box.setAttribute('aria-label', `${label}`);
  box.value = typed.get(`${method}:${field}`) ?? '';
  box.addEventListener('input', () => typed.set(`${method}:${field}`, box.value));
  box.addEventListener('keydown', (e) => {
    // Enter simulates (never executes): a stray Enter must not start a signature flow.
    if (e.key === 'Enter') submit(method, 'simulate');
  });
  wrap.append(box);
  const error = errors.get(method)?.[field];
  if (error) {
    box.setAttribute('aria-invalid', 'true');
    wrap.append(el('span', 'error', error));
  }
  return wrap;
}

function formOf(method: MethodView): MethodFormInput {
  const get = (field: string) => typed.get(`${method.index}:${field}`) ?? '';
  const rows = tokenRows.get(method.index) ?? 1;
  return {
    method: method.index,
    args: method.params.map((_, i) => get(`arg:${i}`)),
    alph: get('alph'),
    tokens: Array.from({ length: rows }, (_, i) => ({
      id: get(`tokenId:${i}`),
      amount: get(`tokenAmount:${i}`),
    })),
    gas: get('gas'),
  };
}

function submit(methodIndex: number, action: PanelAction, anyway = false): void {
  const method = model?.methods.find((m) => m.index === methodIndex);
  if (!method || running) return;
  running = { method: methodIndex, action };
  render();
  const form = formOf(method);
  vscode.postMessage({ type: action, form: anyway ? { ...form, viewOnlyAsTransaction: true } : form });
}

function renderResult(result: MethodResultView, parent: HTMLElement): void {
  const box = el('div', `result outcome-${result.outcome}`);
  box.setAttribute('role', 'status');
  box.append(el('div', 'headline', result.headline));
  if (result.facts.length > 0) {
    const dl = el('dl', 'facts');
    for (const f of result.facts) dl.append(el('dt', undefined, f.label), el('dd', 'mono', f.value));
    box.append(dl);
  }
  if (result.returns.length > 0) {
    box.append(el('h4', undefined, 'Returns'));
    table(
      ['Name', 'Type', 'Value'],
      result.returns.map((r) => [r.name, r.type, r.value]),
      box,
    );
  }
  box.append(el('h4', undefined, `Events (${result.events.length})`));
  for (const e of result.events) {
    const ev = el('div', 'event');
    ev.append(el('div', 'event-name', e.name), el('div', 'mono muted', e.contractAddress));
    if (e.warning) ev.append(el('div', 'warning', e.warning));
    if (e.fields.length > 0)
      table(
        ['Field', 'Type', 'Value'],
        e.fields.map((f) => [f.name, f.type, f.value]),
        ev,
      );
    box.append(ev);
  }
  if (result.debugMessages.length > 0) {
    box.append(el('h4', undefined, 'Debug messages'));
    const ul = el('ul', 'mono');
    for (const d of result.debugMessages)
      ul.append(el('li', undefined, `${d.contractAddress}: ${d.message}`));
    box.append(ul);
  }
  if (result.balanceChanges.length > 0) {
    box.append(el('h4', undefined, 'Balance changes'));
    table(
      ['Address', 'ALPH', 'Tokens'],
      result.balanceChanges.map((b) => [
        b.address,
        b.alph,
        b.tokens.map((t) => `${t.amount} × ${t.name ?? t.id}`).join('\n'),
      ]),
      box,
    );
  }
  if (result.verified.length > 0) {
    box.append(el('h4', undefined, 'Verified before signing'));
    const ul = el('ul');
    for (const v of result.verified) ul.append(el('li', undefined, v));
    box.append(ul);
  }
  parent.append(box);
}

function renderMethod(method: MethodView): HTMLElement {
  const section = el('section', 'method');
  section.dataset.method = method.name;
  section.append(el('h2', 'mono', method.signature));
  const form = el('div', 'form');
  method.params.forEach((p, i) =>
    form.append(input(method.index, `arg:${i}`, `${p.name}: ${p.type}`, p.hint)),
  );
  if (method.params.length === 0) form.append(el('p', 'muted', 'No arguments.'));

  const assets = el('details', 'assets');
  const summary = el(
    'summary',
    undefined,
    method.payable ? 'Approve assets' : 'Approve assets (not used by this method)',
  );
  assets.append(summary);
  assets.open = (typed.get(`${method.index}:alph`) ?? '') !== '' || (tokenRows.get(method.index) ?? 1) > 1;
  assets.append(input(method.index, 'alph', 'ALPH to approve', 'e.g. 1.5 (empty: none)'));
  const rows = tokenRows.get(method.index) ?? 1;
  for (let i = 0; i < rows; i++) {
    const row = el('div', 'token-row');
    row.append(
      input(method.index, `tokenId:${i}`, `Token ${i + 1} id`, '64 hex digits'),
      input(method.index, `tokenAmount:${i}`, `Token ${i + 1} amount`, 'integer, smallest unit'),
    );
    const tokenError = errors.get(method.index)?.[`token:${i}`];
    if (tokenError) row.append(el('span', 'error', tokenError));
    assets.append(row);
  }
  const addToken = el('button', 'secondary', 'Add token');
  addToken.type = 'button';
  addToken.addEventListener('click', () => {
    tokenRows.set(method.index, rows + 1);
    render();
  });
  assets.append(addToken);
  for (const key of ['tokens', 'assets']) {
    const e = errors.get(method.index)?.[key];
    if (e) assets.append(el('div', 'error', e));
  }
  form.append(assets);
  form.append(input(method.index, 'gas', 'Gas (optional)', "empty: the node's estimate"));

  const formError = errors.get(method.index)?.form;
  if (formError) form.append(el('div', 'error', formError));

  const actions = el('div', 'actions');
  const mine = running?.method === method.index;
  const simulate = el(
    'button',
    undefined,
    mine && running?.action === 'simulate' ? 'Simulating…' : 'Simulate',
  );
  const executing = mine && running?.action === 'execute';
  // A getter is read by Simulate; running it as a transaction is a separate, worded choice that costs a fee.
  const execute = method.viewOnly
    ? el('button', 'secondary', executing ? 'Executing…' : (method.executeAnyway ?? 'Execute anyway'))
    : el('button', undefined, executing ? 'Executing…' : 'Execute');
  // Debug runs the method in VS Code's debugger on the project's VM, from the contract's state on chain.
  const debug = el(
    'button',
    'secondary',
    mine && running?.action === 'debug' ? 'Starting the debugger…' : 'Debug',
  );
  for (const [button, action] of [
    [simulate, 'simulate'],
    [debug, 'debug'],
    [execute, 'execute'],
  ] as const) {
    button.type = 'button';
    button.dataset.action = action === 'execute' && method.viewOnly ? 'execute-anyway' : action;
    button.disabled = running !== undefined;
    button.addEventListener('click', () =>
      submit(method.index, action, action === 'execute' && method.viewOnly),
    );
    actions.append(button);
  }
  if (method.viewOnly)
    actions.append(el('span', 'muted', 'View-only: Simulate reads it for free; nothing is signed.'));
  if (mine) {
    const progress = el(
      'span',
      'progress',
      running?.action === 'execute' ? 'Running: confirm in the dialog…' : 'Running…',
    );
    progress.setAttribute('role', 'progressbar');
    actions.append(progress);
  }
  form.append(actions);
  const note = debugNotes.get(method.index);
  if (note) form.append(el('div', 'muted debug-note', note));
  section.append(form);

  const result = results.get(method.index);
  if (result) renderResult(result, section);
  return section;
}

function render(): void {
  if (!model) return;
  // Keep the focused input focused across a re-render (results arrive while a person types).
  const focused = document.activeElement as HTMLInputElement | null;
  const focusKey =
    focused?.tagName === 'INPUT'
      ? `${focused.closest('section')?.dataset.method ?? ''}|${focused.dataset.field ?? ''}`
      : undefined;
  // And its caret or selection: a re-render in the middle of a keystroke must not turn "select all, type"
  // into an append.
  const selection =
    focusKey && focused ? { start: focused.selectionStart, end: focused.selectionEnd } : undefined;

  root.replaceChildren();
  const header = el('header');
  header.append(el('h1', undefined, model.title), el('div', 'mono address', model.address));
  root.append(header);
  if (model.notes.length > 0) {
    const notes = el('ul', 'notes');
    for (const n of model.notes) notes.append(el('li', undefined, n));
    root.append(notes);
  }
  for (const m of model.methods) root.append(renderMethod(m));
  if (model.privateMethods.length > 0)
    root.append(
      el(
        'p',
        'muted',
        `Private methods (not callable from a transaction): ${model.privateMethods.join(', ')}`,
      ),
    );

  if (focusKey) {
    const [method, field] = focusKey.split('|');
    const again = root.querySelector<HTMLInputElement>(
      `section[data-method="${CSS.escape(method ?? '')}"] input[data-field="${CSS.escape(field ?? '')}"]`,
    );
    again?.focus();
    if (again && selection) again.setSelectionRange(selection.start, selection.end);
  }
  vscode.postMessage({ type: 'rendered', text: root.innerText });
}

window.addEventListener('message', (event: MessageEvent<HostToWebviewMessage>) => {
  const message = event.data;
  switch (message.type) {
    case 'model':
      model = message.model;
      vscode.setState({ address: message.model.address });
      render();
      return;
    case 'busy':
      running = { method: message.method, action: message.action };
      render();
      return;
    case 'fieldErrors':
      errors.set(message.method, message.errors);
      // Errors mean the host ran nothing: the buttons are free again. An empty set precedes a run.
      if (Object.keys(message.errors).length > 0 && running?.method === message.method) running = undefined;
      render();
      return;
    case 'debugged':
      debugNotes.set(message.method, message.note);
      if (running?.method === message.method) running = undefined;
      render();
      return;
    case 'result':
      results.set(message.method, message.result);
      if (running?.method === message.method) running = undefined;
      render();
      return;
    case 'error': {
      const box = el('p', 'error', message.message);
      box.setAttribute('role', 'alert');
      if (model) root.prepend(box);
      else root.replaceChildren(box);
      vscode.postMessage({ type: 'rendered', text: root.innerText });
      return;
    }
  }
});

vscode.postMessage({ type: 'ready' });
