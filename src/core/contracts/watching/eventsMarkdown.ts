/**
 * Decoded event listings as a document: the events of a transaction, a block or Show Latest Events,
 * each decoded with the artifact of its emitter and written as Markdown in which outside text is inert.
 */

import {
  decodeEvent,
  formatValue,
  type ArtifactRegistry,
  type ContractArtifact,
  type DecodedEvent,
  type DriftCheck,
  type EventLike,
} from '../../artifacts';
import { codeSpan, markdownText, type SafeMarkdown } from '../../text/inert';
import { RESULT_VALUE_CHARS } from '../../text/resultDocument';

/** Events of any listing decoded for a document or quick pick, each with the artifact of its emitter. */
export function decodeListing<T extends EventLike & { contractAddress: string }>(
  events: readonly T[],
  artifactOf: (address: string) => { artifact?: ContractArtifact; drift?: DriftCheck } | undefined,
  registry?: ArtifactRegistry,
): (T & { decoded: DecodedEvent })[] {
  return events.map((e) => {
    const found = artifactOf(e.contractAddress);
    return {
      ...e,
      decoded: decodeEvent(e, found?.artifact, {
        ...(found?.drift ? { drift: found.drift } : {}),
        ...(registry ? { structs: registry.structs } : {}),
      }),
    };
  });
}

/**
 * A markdown document of decoded events (Events by Transaction Id / Block Hash, Show Latest Events).
 * Names, addresses and values come from the chain and the workspace: each is escaped (markdownText) or
 * put in a code span that cannot be broken out of (codeSpan), so no link, image or HTML can form. A
 * plain-string title is escaped whole; a SafeMarkdown one is this extension's own Markdown.
 */
export function eventsMarkdown(
  title: string | SafeMarkdown,
  events: readonly (EventLike & {
    decoded: DecodedEvent;
    contractAddress?: string;
    txId?: string;
    blockHash?: string;
  })[],
): string {
  const heading = typeof title === 'string' ? markdownText(title) : title.markdown;
  const lines = [`# ${heading}`, ''];
  if (events.length === 0) lines.push('_No events._');
  events.forEach((e, i) => {
    const d = e.decoded;
    // Each event names its transaction on its own line: every listing leads to the transaction the same way.
    const tx = e.txId ? ` in tx ${codeSpan(e.txId)}` : '';
    lines.push(`## ${i + 1}. ${markdownText(d.name)} (eventIndex ${d.index})${tx}`);
    if (e.contractAddress) lines.push(`- contract: ${codeSpan(e.contractAddress)}`);
    if (e.blockHash) lines.push(`- block: ${codeSpan(e.blockHash)}`);
    for (const f of d.fields)
      lines.push(
        `- **${markdownText(f.name)}** (${markdownText(f.type)}): ${codeSpan(formatValue(f.value), RESULT_VALUE_CHARS)}`,
      );
    if (d.warning) lines.push(`- ⚠ ${markdownText(d.warning)}`);
    lines.push('');
  });
  return lines.join('\n');
}
