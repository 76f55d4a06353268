/** How the ledger's kinds of request are named for people (status bar tooltip, Request Usage view). */
import { REQUEST_KINDS, type RequestKind } from '../gateway/usage';

export const KIND_LABELS: Readonly<Record<RequestKind, string>> = {
  contracts: 'Watched contracts',
  node: 'Node view',
  tracking: 'Transaction tracking',
  actions: 'Your actions',
  assistant: 'Language-model tools',
  other: 'Other background',
};

/** What each kind holds, for a legend's hover and the view's notes. */
export const KIND_DESCRIPTIONS: Readonly<Record<RequestKind, string>> = {
  contracts: 'event polling and state re-reads of watched contracts',
  node: "the Node view's status checks and chain heights",
  tracking: 'status polls of tracked transactions',
  actions: 'what you ran: commands, panels, opening views and Refresh',
  assistant: 'what a chat assistant read through the Alephium language-model tools',
  other: 'background work without a kind of its own',
};

export { REQUEST_KINDS, type RequestKind };

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2025-05` as "May 2025". */
export function monthName(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return `${MONTHS[m - 1] ?? month} ${year}`;
}

/** Day 23 of `2025-05` as "May 23". */
export function dayName(month: string, day: number): string {
  const m = Number(month.split('-')[1]);
  return `${(MONTHS[m - 1] ?? month).slice(0, 3)} ${day}`;
}
