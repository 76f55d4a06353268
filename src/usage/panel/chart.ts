/**
 * Where the Request Usage chart's marks go, computed from the model alone: plain numbers, no DOM, so
 * the page only turns them into SVG elements and the unit tests can check every bar. Two plots share one
 * width: requests per day stacked by kind (with the forecast's average day after today and the share
 * spread evenly), and the month so far (running total and background, the forecast to the month's end
 * with its range, the plan's limit and the background share).
 */
import type { RequestUsageModel } from '../../core/usage/usageProtocol';

export interface PlotBox {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

export interface Tick {
  readonly y: number;
  readonly label: string;
}

export interface DayLabel {
  readonly x: number;
  readonly label: string;
  readonly today: boolean;
}

export interface BarMark {
  readonly day: number;
  /** The kind's id (the page's CSS class). */
  readonly kind: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly count: number;
}

export interface ForecastBarMark {
  readonly day: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly count: number;
}

export interface LevelLine {
  readonly y: number;
  readonly value: number;
  readonly label: string;
  /** Far above everything else on the plot: not on its scale, named at its top edge instead. */
  readonly offScale?: boolean;
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface DailyPlot {
  readonly box: PlotBox;
  readonly ticks: readonly Tick[];
  readonly days: readonly DayLabel[];
  readonly bars: readonly BarMark[];
  readonly forecast: readonly ForecastBarMark[];
  readonly share?: LevelLine;
}

export interface MonthPlot {
  readonly box: PlotBox;
  readonly ticks: readonly Tick[];
  readonly days: readonly DayLabel[];
  /** Running total at the end of each day through today (day 0 is the month's start). */
  readonly total: readonly Point[];
  readonly background: readonly Point[];
  /** From the end of today to the month's end, when there is a forecast. */
  readonly forecast?: { readonly expected: readonly Point[]; readonly range: readonly Point[] };
  readonly plan?: LevelLine;
  readonly share?: LevelLine;
}

export interface ChartLayout {
  readonly width: number;
  readonly daily: DailyPlot;
  readonly month: MonthPlot;
  /** Total height of the two plots with their gaps. */
  readonly height: number;
}

/** The top margin holds the plot's title above the labels of its level lines, on a line of its own. */
const MARGIN = { left: 52, right: 12, top: 32, bottom: 26 };
const DAILY_HEIGHT = 200;
const MONTH_HEIGHT = 170;
const GAP = 34;

/** The smallest "nice" number (1, 2 or 5 times a power of ten) at or above `value / steps`, times steps. */
export function niceScale(value: number, steps = 4): { max: number; step: number } {
  const raw = Math.max(value, 1) / steps;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  return { max: step * Math.ceil(Math.max(value, 1) / step), step };
}

/** "950", "12k", "1.5M": a tick's label. */
export function compactCount(n: number): string {
  if (n >= 1_000_000) return `${trim(n / 1_000_000)}M`;
  if (n >= 1_000) return `${trim(n / 1_000)}k`;
  return String(Math.round(n));
}

function trim(n: number): string {
  return String(Math.round(n * 10) / 10);
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

function ticksFor(box: PlotBox, max: number, step: number): Tick[] {
  const ticks: Tick[] = [];
  for (let v = 0; v <= max + step / 2; v += step)
    ticks.push({ y: round(box.top + box.height - (v / max) * box.height), label: compactCount(v) });
  return ticks;
}

/** Day numbers under a plot: the 1st, every 5th and the last, and today. */
function dayLabels(model: RequestUsageModel, centre: (day: number) => number): DayLabel[] {
  const labels: DayLabel[] = [];
  for (const d of model.days) {
    const today = d.day === model.today;
    if (d.day === 1 || d.day % 5 === 0 || d.day === model.daysInMonth || today)
      labels.push({ x: round(centre(d.day)), label: String(d.day), today });
  }
  // Today's label wins over a neighbour it would overlap.
  return labels.filter((l) => l.today || !labels.some((o) => o.today && Math.abs(o.x - l.x) < 14));
}

function dailyPlot(model: RequestUsageModel, width: number): DailyPlot {
  const box: PlotBox = {
    left: MARGIN.left,
    top: MARGIN.top,
    width: width - MARGIN.left - MARGIN.right,
    height: DAILY_HEIGHT - MARGIN.top - MARGIN.bottom,
  };
  const perDay = model.forecast.perDay;
  const dataTop = Math.max(...model.days.map((d) => d.total), perDay ?? 0);
  // A share far above a quiet month's days would flatten every bar to a pixel: it is then named at the
  // top instead of setting the scale.
  const shareOnScale = model.sharePerDay !== undefined && (dataTop === 0 || model.sharePerDay <= 2 * dataTop);
  const { max, step } = niceScale(shareOnScale ? Math.max(dataTop, model.sharePerDay ?? 0) : dataTop);
  const slot = box.width / model.daysInMonth;
  const barWidth = round(Math.max(1, slot * 0.72));
  const xOf = (day: number) => round(box.left + (day - 1) * slot + (slot - barWidth) / 2);
  const yOf = (value: number) => box.top + box.height - (value / max) * box.height;
  const bars: BarMark[] = [];
  const forecast: ForecastBarMark[] = [];
  for (const d of model.days) {
    let below = 0;
    d.counts.forEach((count, k) => {
      if (count <= 0) return;
      const top = yOf(below + count);
      // A bar of a few requests on a scale of thousands still shows: at least one pixel.
      const height = Math.max(1, yOf(below) - top);
      bars.push({
        day: d.day,
        kind: model.kinds[k]?.id ?? 'other',
        x: xOf(d.day),
        y: round(yOf(below) - height),
        width: barWidth,
        height: round(height),
        count,
      });
      below += count;
    });
    if (d.future && perDay !== undefined && perDay > 0) {
      const top = yOf(perDay);
      forecast.push({
        day: d.day,
        x: xOf(d.day),
        y: round(top),
        width: barWidth,
        height: round(box.top + box.height - top),
        count: Math.round(perDay),
      });
    }
  }
  return {
    box,
    ticks: ticksFor(box, max, step),
    days: dayLabels(model, (day) => box.left + (day - 0.5) * slot),
    bars,
    forecast,
    ...(model.sharePerDay !== undefined
      ? {
          share: shareOnScale
            ? {
                y: round(yOf(model.sharePerDay)),
                value: Math.round(model.sharePerDay),
                label: 'background share, spread evenly',
              }
            : {
                y: box.top,
                value: Math.round(model.sharePerDay),
                label: 'background share, spread evenly (above this scale)',
                offScale: true,
              },
        }
      : {}),
  };
}

function monthPlot(model: RequestUsageModel, width: number, top: number): MonthPlot {
  const box: PlotBox = {
    left: MARGIN.left,
    top: top + MARGIN.top,
    width: width - MARGIN.left - MARGIN.right,
    height: MONTH_HEIGHT - MARGIN.top - MARGIN.bottom,
  };
  const totals: number[] = [model.unattributed];
  const backgrounds: number[] = [0];
  // What a person asked for (the kinds that are not background work) is not counted against the share.
  const askedIndexes = model.kinds.map((k, i) => (k.background ? -1 : i)).filter((i) => i >= 0);
  for (const d of model.days) {
    if (d.day > model.today) break;
    totals.push((totals.at(-1) ?? 0) + d.total);
    const asked = askedIndexes.reduce((n, i) => n + (d.counts[i] ?? 0), 0);
    backgrounds.push((backgrounds.at(-1) ?? 0) + d.total - asked);
  }
  const f = model.forecast;
  const highest = Math.max(
    totals.at(-1) ?? 0,
    f.high ?? 0,
    f.expected ?? 0,
    model.limit ?? 0,
    model.share ?? 0,
  );
  const { max, step } = niceScale(highest);
  const xOf = (day: number) => round(box.left + (day / model.daysInMonth) * box.width);
  const yOf = (value: number) => round(box.top + box.height - (value / max) * box.height);
  const line = (values: readonly number[]) => values.map((v, day) => ({ x: xOf(day), y: yOf(v) }));
  const end = model.daysInMonth;
  const now = totals.at(-1) ?? 0;
  const forecast =
    f.expected !== undefined && f.low !== undefined && f.high !== undefined && model.today < end
      ? {
          expected: [
            { x: xOf(model.today), y: yOf(now) },
            { x: xOf(end), y: yOf(f.expected) },
          ],
          range: [
            { x: xOf(model.today), y: yOf(now) },
            { x: xOf(end), y: yOf(f.high) },
            { x: xOf(end), y: yOf(f.low) },
          ],
        }
      : undefined;
  return {
    box,
    ticks: ticksFor(box, max, step),
    days: dayLabels(model, (day) => box.left + (day / model.daysInMonth) * box.width),
    total: line(totals),
    background: line(backgrounds),
    ...(forecast ? { forecast } : {}),
    ...(model.limit !== undefined
      ? { plan: { y: yOf(model.limit), value: model.limit, label: "the plan's monthly limit" } }
      : {}),
    ...(model.share !== undefined
      ? { share: { y: yOf(model.share), value: model.share, label: 'background share' } }
      : {}),
  };
}

/** The chart's marks for a plot `width` pixels wide (at least 320). */
export function chartLayout(model: RequestUsageModel, width: number): ChartLayout {
  const w = Math.max(320, Math.round(width));
  return {
    width: w,
    daily: dailyPlot(model, w),
    month: monthPlot(model, w, DAILY_HEIGHT + GAP),
    height: DAILY_HEIGHT + GAP + MONTH_HEIGHT,
  };
}
