import { HOUR_MS } from '../util/month';
import type { SchedulePlan } from './jobs';

function duration(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 2 * HOUR_MS) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round((ms / HOUR_MS) * 10) / 10} h`;
}

/**
 * One line for the status bar's tooltip when the share cannot give every contract the 16 s floor: what
 * freshness the plan buys, e.g. "10 contracts on Free: each every 6 min". Undefined when the floor holds.
 */
export function freshnessLine(plan: SchedulePlan, planName: string | undefined): string | undefined {
  if (!plan.budgetBound) return undefined;
  const on = planName ? ` on ${planName[0]?.toUpperCase()}${planName.slice(1)}` : '';
  const parts = servedByScan(plan.kinds)
    .filter((k) => Number.isFinite(k.intervalMs))
    .map((k) => {
      const noun = KIND_NOUNS[k.kind] ?? [k.kind, `${k.kind}s`];
      const name = k.jobs === 1 ? noun[0] : noun[1];
      return `${k.jobs} ${name}${on}: ${k.jobs === 1 ? '' : 'each '}every ${duration(k.intervalMs)}`;
    });
  return parts.length ? parts.join('; ') : undefined;
}

const KIND_NOUNS: Record<string, [string, string]> = {
  contract: ['contract', 'contracts'],
  node: ['node status check', 'node status checks'],
  chains: ['chain heights read', 'chain heights reads'],
  tx: ['tracked transaction', 'tracked transactions'],
};

type Kind = SchedulePlan['kinds'][number];

/**
 * While one blocks scan serves the watched contracts, their news comes as often as the scan runs: their
 * own polls are a slow safety net, so "each every 30 min" would say the wrong thing.
 */
function servedByScan(kinds: readonly Kind[]): Kind[] {
  const scan = kinds.find((k) => k.kind === 'scan');
  if (!scan) return [...kinds];
  return kinds
    .filter((k) => k.kind !== 'scan')
    .map((k) => (k.kind === 'contract' ? { ...k, intervalMs: scan.intervalMs } : k));
}
