/**
 * The recent-events tool: the latest events of a contract, each named by its `eventIndex` with the
 * artifact of its emitter (the decoder of the Watched Contracts view), newest first. The count, then
 * pages of up to 100, at the user's priority under the `assistant` purpose.
 */
import {
  formatValue,
  type ArtifactRegistry,
  type ContractArtifact,
  type DecodedEvent,
  type DriftCheck,
} from '../artifacts';
import { fetchLatestEvents, type ContractEvent, type GatewayClient, type LatestEvents } from '../gateway';
import { decodeListing } from '../contracts/watching/eventsMarkdown';
import { latestEventsShortfall } from '../contracts/watching/rows';
import { answer, chainValue } from './answerText';
import { ASSISTANT_REQUESTS } from './contractState';

export function readRecentEvents(
  client: GatewayClient,
  address: string,
  count: number,
  signal?: AbortSignal,
): Promise<LatestEvents> {
  return fetchLatestEvents(client, address, count, { ...ASSISTANT_REQUESTS, ...(signal ? { signal } : {}) });
}

export interface RecentEventsReading {
  readonly address: string;
  readonly label?: string;
  readonly requested: number;
  /** The contract's event counter (hidden Debug slots included). */
  readonly count: number;
  /** Newest first. */
  readonly events: readonly (ContractEvent & { readonly decoded: DecodedEvent })[];
  /** What the read's request cap left unread (`latestEventsShortfall`), when it stopped short. */
  readonly notRead?: string;
}

/** The events decoded with the artifact of their contract (drift warns on every event), newest first. */
export function decodeRecentEvents(
  address: string,
  latest: LatestEvents,
  requested: number,
  found: { artifact?: ContractArtifact; drift?: DriftCheck } | undefined,
  registry?: ArtifactRegistry,
  label?: string,
): RecentEventsReading {
  const events = latest.events.map((e) => ({ ...e, contractAddress: address }));
  const decoded = decodeListing(events, () => found, registry).reverse();
  const notRead = latestEventsShortfall(latest);
  return {
    address,
    ...(label ? { label } : {}),
    requested,
    count: latest.count,
    events: decoded,
    ...(notRead ? { notRead } : {}),
  };
}

function eventLine(e: RecentEventsReading['events'][number]): string[] {
  const fields = e.decoded.fields
    .map((f) => `${chainValue(f.name, 100)}: ${chainValue(formatValue(f.value))}`)
    .join(', ');
  const lines = [
    `- ${chainValue(e.decoded.name, 100)} (eventIndex ${e.eventIndex})(${fields}) · tx ${chainValue(e.txId, 80)} · block ${chainValue(e.blockHash, 80)}`,
  ];
  if (e.decoded.warning) lines.push(`  warning: ${chainValue(e.decoded.warning)}`);
  return lines;
}

export function recentEventsText(reading: RecentEventsReading): string {
  const who = reading.label ? `${chainValue(reading.label, 100)} at ${reading.address}` : reading.address;
  const n = reading.events.length;
  const head =
    n === 0
      ? `Contract ${who} has no events to show (its event counter is ${reading.count}).`
      : `The latest ${n} event${n === 1 ? '' : 's'} of contract ${who} (asked for ${reading.requested}; its event counter is ${reading.count}), newest first:`;
  const notRead = reading.notRead ? [`Not everything was read: ${reading.notRead}.`] : [];
  return answer([head, ...notRead, ...reading.events.flatMap(eventLine)]);
}
