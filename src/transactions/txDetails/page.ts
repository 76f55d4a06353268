// Browser code of the transaction details webview. Everything from the chain is rendered with
// textContent (never innerHTML), so a message, token or event field holding markup shows as text.
import type {
  HostToWebviewMessage,
  TxDetailsModel,
  TxDetailsState,
  TxOutputView,
  TxTokenView,
  WebviewToHostMessage,
  WhatHappenedView,
} from '../../core/transactions/txDetailsProtocol';
import { el, pageRoot, vsCodeApi } from '../../platform/webview/page';

const vscode = vsCodeApi<WebviewToHostMessage, TxDetailsState>();
const root = pageRoot();
let state = vscode.getState() as TxDetailsState | undefined;
let current: TxDetailsModel | undefined;

function section(title: string, parent: HTMLElement): HTMLElement {
  const s = el('section');
  s.append(el('h2', undefined, title));
  parent.append(s);
  return s;
}

function facts(rows: [string, string | undefined][], parent: HTMLElement): void {
  const dl = el('dl', 'facts');
  for (const [key, value] of rows) {
    if (value === undefined) continue;
    dl.append(el('dt', undefined, key), el('dd', 'mono', value));
  }
  parent.append(dl);
}

function table(headers: string[], rows: (string | HTMLElement)[][], parent: HTMLElement): void {
  if (rows.length === 0) {
    parent.append(el('p', 'muted', 'None.'));
    return;
  }
  const t = el('table');
  const head = el('tr');
  for (const h of headers) head.append(el('th', undefined, h));
  t.append(el('thead'));
  (t.firstChild as HTMLElement).append(head);
  const body = el('tbody');
  for (const row of rows) {
    const tr = el('tr');
    for (const cell of row) {
      const td = el('td', 'mono');
      if (typeof cell === 'string') td.textContent = cell;
      else td.append(cell);
      tr.append(td);
    }
    body.append(tr);
  }
  t.append(body);
  parent.append(t);
}

/** A known token's symbol and decimal amount beside its raw amount and whole id; an unknown one raw. */
function tokenText(t: TxTokenView): string {
  if (t.symbol === undefined || t.decimalAmount === undefined) return `${t.amount} × ${t.id}`;
  const claim = t.source === 'contract' ? ', as the token names itself' : '';
  return `${t.decimalAmount} ${t.symbol} (${t.amount} raw${claim}) × ${t.id}`;
}

function tokensText(tokens: readonly TxTokenView[]): string {
  return tokens.map(tokenText).join('\n');
}

function outputRows(outputs: readonly TxOutputView[]): (string | HTMLElement)[][] {
  return outputs.map((o) => {
    const address = el('span');
    address.append(el('span', undefined, o.address));
    if (o.isChange) address.append(el('span', 'badge', 'change'));
    if (o.type && o.type !== 'AssetOutput') address.append(el('span', 'badge', o.type));
    const extra = el('span');
    if (o.lockedUntil) extra.append(el('div', undefined, `locked until ${o.lockedUntil}`));
    if (o.messageHex) extra.append(el('div', undefined, `message (hex): ${o.messageHex}`));
    if (o.messageText !== undefined)
      extra.append(el('div', 'message-text', `message (text): ${o.messageText}`));
    return [
      String(o.index),
      address,
      `${o.amount.alph} ALPH`,
      `${o.amount.atto} atto`,
      tokensText(o.tokens),
      extra,
    ];
  });
}

function lines(title: string, items: readonly string[], parent: HTMLElement): void {
  if (items.length === 0) return;
  parent.append(el('h3', undefined, title));
  const list = el('ul', 'mono');
  for (const item of items) list.append(el('li', undefined, item));
  parent.append(list);
}

/** Explain Transaction's answer, or a button that asks for it (it sends requests, so never on its own). */
function whatHappened(model: TxDetailsModel, parent: HTMLElement): void {
  if (model.kind !== 'transaction' || model.status.blockHash === undefined) return;
  const box = section('What happened', parent);
  box.id = 'what-happened';
  const view: WhatHappenedView | undefined = model.whatHappened;
  if (!view) {
    const explain = el('button', undefined, 'Explain Transaction');
    explain.title = 'Decode its script, name its events and, for a failed script, reproduce the failure';
    explain.addEventListener('click', () => vscode.postMessage({ type: 'explain' }));
    box.append(explain);
    return;
  }
  box.append(el('p', undefined, view.outcome));
  if (view.failure) {
    box.append(el('p', 'error', view.failure.message));
    if (view.failure.where) {
      const open = el('button', 'secondary', `Open ${view.failure.where}`);
      open.addEventListener('click', () => vscode.postMessage({ type: 'openFailure' }));
      box.append(open);
    }
  }
  if (view.stateBlock) box.append(el('p', 'muted', `Read against ${view.stateBlock}.`));
  lines('Calls', view.calls, box);
  lines('Events', view.events, box);
  lines('Debug messages', view.debug, box);
  for (const change of view.stateChanges) lines(`State of ${change.contract}`, change.lines, box);
  lines('Notes', view.notes, box);
}

function setState(next: TxDetailsState): void {
  state = next;
  vscode.setState(next);
}

/** Whether the host said the active profile has an explorer (Open in Explorer is offered only then). */
let explorerKnown = false;

function render(model: TxDetailsModel): void {
  current = model;
  const showRaw = state?.showRaw === true;
  root.replaceChildren();

  const header = el('header');
  header.append(el('h1', undefined, model.kind === 'unsigned' ? 'Unsigned transaction' : 'Transaction'));
  header.append(el('div', 'mono txid', model.txId));
  const status = el('div', `status status-${model.status.kind}`, model.status.text);
  status.setAttribute('role', 'status');
  header.append(status);
  const actions = el('div', 'actions');
  if (model.kind === 'transaction') {
    const refresh = el('button', undefined, 'Refresh');
    refresh.addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
    actions.append(refresh);
    if (explorerKnown) {
      const explorer = el('button', 'secondary', 'Open in Explorer');
      explorer.addEventListener('click', () => vscode.postMessage({ type: 'openInExplorer' }));
      actions.append(explorer);
    }
  }
  const rawToggle = el('button', 'secondary', showRaw ? 'Hide raw JSON' : 'Show raw JSON');
  rawToggle.addEventListener('click', () => {
    setState({ ...(state ?? { txId: model.txId }), showRaw: !showRaw });
    if (current) render(current);
  });
  actions.append(rawToggle);
  header.append(actions);
  root.append(header);

  if (model.notes.length > 0) {
    const notes = el('ul', 'notes');
    for (const n of model.notes) notes.append(el('li', undefined, n));
    root.append(notes);
  }

  const summary = section('Summary', root);
  facts(
    [
      ['Status', model.status.text],
      [
        'Confirmations',
        model.status.confirmations !== undefined
          ? `${model.status.confirmations}${model.status.required !== undefined ? ` / ${model.status.required} required` : ''}`
          : undefined,
      ],
      ['Block', model.status.blockHash],
      ['Chain', model.chain ? `group ${model.chain.fromGroup} → group ${model.chain.toGroup}` : undefined],
      ['Network id', model.networkId !== undefined ? String(model.networkId) : undefined],
      ['Gas amount', model.gas ? String(model.gas.amount) : undefined],
      ['Gas price', model.gas ? `${model.gas.priceAtto} atto` : undefined],
      [
        'Fee',
        model.gas ? `${model.gas.fee.alph} ALPH (${model.gas.fee.atto} atto) = gas × price` : undefined,
      ],
      ['Script', model.hasScript ? 'yes' : 'no'],
      [
        'Script execution',
        model.scriptExecutionOk === undefined ? undefined : model.scriptExecutionOk ? 'ok' : 'failed',
      ],
    ],
    summary,
  );

  whatHappened(model, root);

  const balances = section('Balance changes', root);
  table(
    ['Address', 'ALPH', 'atto', 'Tokens'],
    model.balanceChanges.map((b) => [b.address, b.alph, b.atto, tokensText(b.tokens)]),
    balances,
  );
  if (model.balanceNote) balances.append(el('p', 'muted', model.balanceNote));

  table(
    ['#', 'Address', 'Unlock', 'Output reference'],
    model.inputs.map((i, n) => [String(n), i.address ?? '(not revealed)', i.unlockType, i.outputRefKey]),
    section(`Inputs (${model.inputs.length})`, root),
  );
  table(
    ['#', 'Address', 'ALPH', 'atto', 'Tokens', 'Lock / message'],
    outputRows(model.outputs),
    section(`Outputs (${model.outputs.length})`, root),
  );
  if (model.contractInputs.length > 0 || model.kind === 'transaction') {
    table(
      ['Output reference'],
      model.contractInputs.map((k) => [k]),
      section(`Contract inputs (${model.contractInputs.length})`, root),
    );
    table(
      ['#', 'Address', 'ALPH', 'atto', 'Tokens', 'Lock / message'],
      outputRows(model.generatedOutputs),
      section(`Generated outputs (${model.generatedOutputs.length})`, root),
    );
  }

  const events = section(`Events (${model.events.length})`, root);
  if (model.events.length === 0) events.append(el('p', 'muted', 'None.'));
  for (const e of model.events) {
    const box = el('div', 'event');
    box.append(el('h3', undefined, `${e.name} (index ${e.eventIndex})`));
    box.append(el('div', 'mono muted', e.contractAddress));
    if (e.warning) box.append(el('p', 'warning', e.warning));
    table(
      ['Field', 'Type', 'Value'],
      e.fields.map((f) => [f.name, f.type, f.value]),
      box,
    );
    events.append(box);
  }

  if (model.kind === 'transaction') {
    const sigs = section('Signatures', root);
    table(
      ['Input signatures'],
      model.inputSignatures.map((s) => [s]),
      sigs,
    );
    if (model.scriptSignatures.length > 0)
      table(
        ['Script signatures'],
        model.scriptSignatures.map((s) => [s]),
        sigs,
      );
  }

  if (showRaw) {
    const raw = section('Raw JSON', root);
    raw.append(el('pre', 'raw', model.raw));
  }
  root.append(el('footer', 'muted', `Updated ${model.updatedAt}`));
  vscode.postMessage({ type: 'rendered', text: root.innerText });
}

window.addEventListener('message', (event: MessageEvent<HostToWebviewMessage>) => {
  const message = event.data;
  if (message.type === 'render') {
    // Keep the host's view of which tx this is, and the page's own UI choices (raw toggle).
    setState({ ...message.state, showRaw: state?.showRaw === true });
    explorerKnown = message.explorer === true;
    render(message.model);
  } else if (message.type === 'error') {
    const box = el('p', 'error', message.message);
    box.setAttribute('role', 'alert');
    if (current) root.prepend(box);
    else root.replaceChildren(box);
    vscode.postMessage({ type: 'rendered', text: root.innerText });
  } else if (message.type === 'loading') {
    root.replaceChildren(el('p', 'muted', `Loading ${message.txId}…`));
  }
});

vscode.postMessage(state ? { type: 'ready', state } : { type: 'ready' });
