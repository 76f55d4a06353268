/**
 * The Request Usage view's model: the month per day and kind, the share and the forecast, and the same
 * in sentences (the chart's text equivalent). Built here from the ledger so that what the page draws is
 * tested without a browser; the page only lays it out (src/usage/panel/chart.ts).
 */
import { monthOf, type MonthLedger } from '../gateway/usage';
import type { RequestUsageModel, UsageDayView } from './usageProtocol';
import { plainText } from '../text/inert';
import { exactCount, forecastMonth, percentOf, roughCount, type MonthForecast } from './forecast';
import { isBackgroundKind } from '../gateway/usage';
import { KIND_DESCRIPTIONS, KIND_LABELS, REQUEST_KINDS, dayName, monthName } from './kinds';
import { forecastLine, kindsLine, runsOutLine, shareLine } from './usageTooltip';

export interface UsageViewInput {
  readonly ledger: MonthLedger;
  readonly forecast: MonthForecast;
  readonly now: number;
  readonly profile?: string;
  readonly plan?: string;
}

function isWeekend(month: string, day: number): boolean {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const weekday = new Date(Date.UTC(year, m - 1, day)).getUTCDay();
  return weekday === 0 || weekday === 6;
}

/** The days of the month, each with its requests per kind (all zero for days without any). */
function dayViews(ledger: MonthLedger, forecast: MonthForecast): UsageDayView[] {
  const byDay = new Map(ledger.days.map((d) => [d.day, d]));
  const days: UsageDayView[] = [];
  for (let day = 1; day <= forecast.daysInMonth; day++) {
    const d = byDay.get(day);
    const counts = REQUEST_KINDS.map((k) => d?.[k] ?? 0);
    days.push({
      day,
      label: dayName(ledger.month, day),
      counts,
      total: counts.reduce((a, b) => a + b, 0),
      today: day === forecast.today,
      future: day > forecast.today,
      weekend: isWeekend(ledger.month, day),
    });
  }
  return days;
}

/** The chart in sentences, in the order a person reads it. */
function summaryOf(ledger: MonthLedger, forecast: MonthForecast, days: readonly UsageDayView[]): string[] {
  const limit =
    ledger.limit !== undefined
      ? ` of the plan's ${exactCount(ledger.limit)} (${percentOf(ledger.count, ledger.limit)})`
      : '';
  const lines = [
    `${monthName(ledger.month)} so far: ${exactCount(ledger.count)} requests${limit}.`,
    `By kind: ${kindsLine(ledger)}.`,
  ];
  const busiest = days.filter((d) => !d.future).reduce((a, b) => (b.total > a.total ? b : a), days[0]!);
  if (busiest && busiest.total > 0)
    lines.push(`Busiest day: ${busiest.label} with ${exactCount(busiest.total)} requests.`);
  lines.push(forecastLine(forecast));
  if (forecast.total)
    lines.push(
      `Each day left is drawn at the average day so far, about ${roughCount(forecast.total.perDay)} requests.`,
    );
  const share = shareLine(forecast);
  if (share) lines.push(share);
  const runsOut = runsOutLine(forecast);
  if (runsOut) lines.push(runsOut);
  lines.push('Days are UTC days, as the gateway counts the month.');
  return lines;
}

export function buildUsageViewModel(input: UsageViewInput): RequestUsageModel {
  const { ledger, forecast } = input;
  const days = dayViews(ledger, forecast);
  const kinds = REQUEST_KINDS.map((id, k) => ({
    id,
    label: KIND_LABELS[id],
    description: KIND_DESCRIPTIONS[id],
    background: isBackgroundKind(id),
    total: days.reduce((sum, d) => sum + (d.counts[k] ?? 0), 0),
  }));
  const total = forecast.total;
  return {
    ...(input.profile !== undefined ? { profile: plainText(input.profile, 80) } : {}),
    ...(input.plan !== undefined ? { plan: input.plan } : {}),
    month: ledger.month,
    monthLabel: monthName(ledger.month),
    daysInMonth: forecast.daysInMonth,
    today: forecast.today,
    kinds,
    days,
    total: ledger.count,
    unattributed: ledger.unattributed,
    ...(ledger.limit !== undefined ? { limit: ledger.limit } : {}),
    ...(forecast.share !== undefined && forecast.shareFraction !== undefined
      ? {
          share: forecast.share,
          sharePercent: Math.round(forecast.shareFraction * 100),
          sharePerDay: forecast.share / forecast.daysInMonth,
        }
      : {}),
    forecast: {
      basis: forecast.basis,
      historyDays: forecast.historyDays,
      ...(total ? { expected: total.expected, low: total.low, high: total.high, perDay: total.perDay } : {}),
      ...(forecast.background ? { backgroundExpected: forecast.background.expected } : {}),
      ...(forecast.planRunsOutOn !== undefined ? { planRunsOutOn: forecast.planRunsOutOn } : {}),
    },
    summary: summaryOf(ledger, forecast, days),
    updatedAt: new Date(input.now).toISOString(),
  };
}

/** The model of a month with nothing to show, and why (no profile, or a profile without an API key). */
export function emptyUsageViewModel(now: number, notice: string): RequestUsageModel {
  const ledger: MonthLedger = {
    keyId: '',
    month: monthOf(now),
    count: 0,
    limit: undefined,
    fraction: undefined,
    days: [],
    unattributed: 0,
  };
  const forecast = forecastMonth(ledger, now);
  return { ...buildUsageViewModel({ ledger, forecast, now }), notice };
}
