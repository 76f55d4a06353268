// Browser code of the Request Usage view. It draws the posted model as inline SVG: every mark's place
// comes from chartLayout (src/usage/panel/chart.ts), every word is set with textContent, no
// handler is inline and nothing is fetched (the CSP allows only this nonce'd script and the stylesheet).
import { chartLayout, type ChartLayout, type LevelLine, type Point } from './chart';
import type {
  HostToWebviewMessage,
  RequestUsageModel,
  WebviewToHostMessage,
} from '../../core/usage/usageProtocol';
import { el, pageRoot, vsCodeApi } from '../../platform/webview/page';

const vscode = vsCodeApi<WebviewToHostMessage>();
const root = pageRoot();
const SVG = 'http://www.w3.org/2000/svg';
let current: RequestUsageModel | undefined;

const count = (n: number): string => Math.round(n).toLocaleString('en-US');

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number> = {},
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function points(list: readonly Point[]): string {
  return list.map((p) => `${p.x},${p.y}`).join(' ');
}

/** A horizontal reference line across a plot, labelled at its right end. */
function level(parent: SVGElement, line: LevelLine, left: number, right: number, className: string): void {
  const g = svg('g', { class: `level ${className}${line.offScale ? ' off-scale' : ''}` });
  g.append(svg('title', {}, `${line.label}: ${count(line.value)}`));
  // Off the scale, only its name and value are written at the top edge: a line there would lie.
  if (!line.offScale) g.append(svg('line', { x1: left, x2: right, y1: line.y, y2: line.y }));
  g.append(
    svg('text', { x: right, y: line.y - 3, 'text-anchor': 'end' }, `${line.label} ${count(line.value)}`),
  );
  parent.append(g);
}

function axes(parent: SVGElement, plot: ChartLayout['daily'] | ChartLayout['month']): void {
  const { box } = plot;
  const g = svg('g', { class: 'axis' });
  for (const t of plot.ticks) {
    g.append(
      svg('line', { class: 'grid', x1: box.left, x2: box.left + box.width, y1: t.y, y2: t.y }),
      svg('text', { class: 'tick-label', x: box.left - 6, y: t.y + 3, 'text-anchor': 'end' }, t.label),
    );
  }
  const bottom = box.top + box.height;
  for (const d of plot.days) {
    g.append(
      svg(
        'text',
        {
          class: d.today ? 'day-label today' : 'day-label',
          x: d.x,
          y: bottom + 14,
          'text-anchor': 'middle',
        },
        d.label,
      ),
    );
  }
  parent.append(g);
}

function dailyChart(parent: SVGElement, model: RequestUsageModel, layout: ChartLayout): void {
  const plot = layout.daily;
  const { box } = plot;
  parent.append(
    svg('text', { class: 'plot-title', x: box.left, y: box.top - 18 }, 'Requests per day, by kind'),
  );
  axes(parent, plot);
  const bars = svg('g', { class: 'bars' });
  for (const day of model.days) {
    const marks = plot.bars.filter((b) => b.day === day.day);
    const forecast = plot.forecast.find((f) => f.day === day.day);
    if (marks.length === 0 && !forecast) continue;
    const g = svg('g', { class: 'day', 'data-day': day.day });
    const parts = marks.map(
      (b) => `${model.kinds.find((k) => k.id === b.kind)?.label ?? b.kind} ${count(b.count)}`,
    );
    g.append(
      svg(
        'title',
        {},
        forecast
          ? `${day.label}: forecast, an average day of about ${count(forecast.count)}`
          : `${day.label}: ${parts.join(', ')} (${count(day.total)} in all)`,
      ),
    );
    for (const b of marks)
      g.append(
        svg('rect', {
          class: `bar kind-${b.kind}`,
          x: b.x,
          y: b.y,
          width: b.width,
          height: b.height,
          'data-day': b.day,
          'data-kind': b.kind,
          'data-count': b.count,
        }),
      );
    if (forecast)
      g.append(
        svg('rect', {
          class: 'forecast-bar',
          x: forecast.x,
          y: forecast.y,
          width: forecast.width,
          height: forecast.height,
          'data-day': forecast.day,
          'data-count': forecast.count,
        }),
      );
    bars.append(g);
  }
  parent.append(bars);
  if (plot.share) level(parent, plot.share, box.left, box.left + box.width, 'share-line');
}

function monthChart(parent: SVGElement, layout: ChartLayout): void {
  const plot = layout.month;
  const { box } = plot;
  parent.append(
    svg('text', { class: 'plot-title', x: box.left, y: box.top - 18 }, 'The month so far, and the forecast'),
  );
  axes(parent, plot);
  if (plot.forecast) {
    parent.append(
      svg('polygon', { class: 'forecast-range', points: points(plot.forecast.range) }),
      svg('polyline', { class: 'forecast-line', points: points(plot.forecast.expected) }),
    );
  }
  parent.append(
    svg('polyline', { class: 'background-line', points: points(plot.background) }),
    svg('polyline', { class: 'total-line', points: points(plot.total) }),
  );
  const right = box.left + box.width;
  if (plot.share) level(parent, plot.share, box.left, right, 'share-line');
  if (plot.plan) level(parent, plot.plan, box.left, right, 'plan-line');
}

function chart(model: RequestUsageModel): HTMLElement {
  const figure = el('figure', 'chart');
  const width = Math.min(1100, Math.max(320, root.clientWidth - 8));
  const layout = chartLayout(model, width);
  const image = svg('svg', {
    role: 'img',
    'aria-labelledby': 'chart-title',
    'aria-describedby': 'summary',
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    width: layout.width,
    height: layout.height,
  });
  image.append(svg('title', { id: 'chart-title' }, `Requests of ${model.monthLabel} per day, by kind`));
  dailyChart(image, model, layout);
  monthChart(image, layout);
  figure.append(image);
  return figure;
}

function legend(model: RequestUsageModel): HTMLElement {
  const list = el('ul', 'legend');
  for (const kind of model.kinds) {
    const item = el('li');
    item.title = kind.description;
    const swatch = svg('svg', { class: 'swatch', width: 12, height: 12, 'aria-hidden': 'true' });
    swatch.append(svg('rect', { class: `kind-${kind.id}`, width: 12, height: 12 }));
    item.append(swatch, el('span', undefined, `${kind.label} ${count(kind.total)}`));
    list.append(item);
  }
  const lines: [string, string][] = [
    ['total', 'All requests so far'],
    ['background', 'Background so far'],
    ['forecast', 'Forecast'],
    ['share', 'Background share'],
    ['plan', "Plan's limit"],
  ];
  for (const [id, label] of lines) {
    const item = el('li');
    const swatch = svg('svg', { class: 'swatch', width: 16, height: 12, 'aria-hidden': 'true' });
    swatch.append(svg('line', { class: `${id}-key`, x1: 0, x2: 16, y1: 6, y2: 6 }));
    item.append(swatch, el('span', undefined, label));
    list.append(item);
  }
  return list;
}

/** The numbers behind the bars, for reading them exactly or with a screen reader. */
function numbers(model: RequestUsageModel): HTMLElement {
  const details = el('details');
  details.append(el('summary', undefined, 'Numbers per day'));
  const table = el('table');
  const head = el('tr');
  for (const h of ['Day', ...model.kinds.map((k) => k.label), 'All']) head.append(el('th', undefined, h));
  table.append(head);
  for (const day of model.days) {
    if (day.future) break;
    const row = el('tr', day.today ? 'today' : undefined);
    row.append(el('td', undefined, day.label));
    for (const n of day.counts) row.append(el('td', 'num', count(n)));
    row.append(el('td', 'num', count(day.total)));
    table.append(row);
  }
  details.append(table);
  return details;
}

function render(model: RequestUsageModel): void {
  current = model;
  root.replaceChildren();
  root.append(el('h1', undefined, `Request Usage · ${model.monthLabel}`));
  const who = [
    model.profile ? `profile ${model.profile}` : undefined,
    model.plan ? `plan ${model.plan}` : undefined,
  ]
    .filter((s): s is string => s !== undefined)
    .join(' · ');
  if (who) root.append(el('p', 'muted', who));
  if (model.notice) root.append(el('p', 'notice', model.notice));
  const summary = el('ul', 'summary');
  summary.id = 'summary';
  for (const line of model.summary) summary.append(el('li', undefined, line));
  root.append(summary, legend(model), chart(model), numbers(model));
  root.append(el('p', 'muted', `Updated ${new Date(model.updatedAt).toLocaleTimeString()}.`));
  vscode.postMessage({ type: 'rendered', text: root.textContent ?? '' });
}

window.addEventListener('message', (event: MessageEvent<HostToWebviewMessage>) => {
  const message = event.data;
  if (message?.type === 'model') render(message.model);
});

let resizing: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => {
    if (current) render(current);
  }, 150);
});

vscode.postMessage({ type: 'ready' });
