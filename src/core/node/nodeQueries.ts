/**
 * The node commands' logic in plain Node: "Address Info" (validity, group, balance with tokens) and
 * "Blocks in Time Range" (presets, validation, a flat newest-first listing). The splitting of ranges too
 * long or too large to answer at once lives in the gateway layer (blocksRange.ts); this only chooses the
 * range and presents the answer, also while its parts are still arriving.
 */
import { addressType, attoToAlph, groupOfAddress, isValidAddress, parseAddress } from '../protocol';
import type { Balance, BlockEntry, Blocks } from '../gateway/schemas';
import { codeSpan, markdownText } from '../text/inert';
import type { TokenMeta } from '../tokens';
import { formatTokenAmount } from '../tokens/units';

export interface AddressCheck {
  readonly address: string;
  readonly valid: boolean;
  readonly type?: string;
  /** The group computed locally from the address bytes. */
  readonly group?: number;
  readonly problem?: string;
}

/** Checks an address locally first: a malformed one never costs a request. */
export function checkAddress(text: string): AddressCheck {
  const address = text.trim();
  if (!isValidAddress(address)) {
    let problem = 'not a valid base58 Alephium address';
    try {
      parseAddress(address);
    } catch (e) {
      problem = (e as Error).message;
    }
    return { address, valid: false, problem };
  }
  return { address, valid: true, type: addressType(address), group: groupOfAddress(address) };
}

export interface AddressInfo extends AddressCheck {
  /** The group the gateway reported (the spec's validity check); equals `group` for a valid address. */
  readonly gatewayGroup?: number;
  readonly balance?: {
    readonly atto: string;
    readonly alph: string;
    readonly lockedAtto: string;
    readonly lockedAlph: string;
    readonly utxos: number;
    readonly tokens: readonly AddressToken[];
  };
}

/** A token the address holds: raw amounts always; symbol and decimal amounts when the token is known. */
export interface AddressToken {
  readonly id: string;
  readonly amount: string;
  readonly locked: string;
  readonly symbol?: string;
  readonly decimalAmount?: string;
  readonly decimalLocked?: string;
  /** Where the symbol came from: the token list, or the token's own contract (its claim). */
  readonly source?: TokenMeta['source'];
}

function addressToken(id: string, amount: string, locked: string, meta: TokenMeta | undefined): AddressToken {
  if (!meta) return { id, amount, locked };
  const decimal = (raw: string) => formatTokenAmount(raw, meta.decimals);
  return {
    id,
    amount,
    locked,
    symbol: meta.symbol,
    decimalAmount: decimal(amount),
    decimalLocked: decimal(locked),
    source: meta.source,
  };
}

/** The token ids a balance answer holds (what Address Info names before it shows them). */
export function balanceTokenIds(balance: Balance): string[] {
  const ids = [...(balance.tokenBalances ?? []), ...(balance.lockedTokenBalances ?? [])].map((t) => t.id);
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

export function addressInfo(
  check: AddressCheck,
  gatewayGroup: number,
  balance: Balance,
  names?: ReadonlyMap<string, TokenMeta | undefined>,
): AddressInfo {
  const locked = new Map((balance.lockedTokenBalances ?? []).map((t) => [t.id, String(t.amount)]));
  const ids = new Set([...(balance.tokenBalances ?? []).map((t) => t.id), ...locked.keys()]);
  const amounts = new Map((balance.tokenBalances ?? []).map((t) => [t.id, String(t.amount)]));
  return {
    ...check,
    gatewayGroup,
    balance: {
      atto: String(balance.balance),
      alph: attoToAlph(String(balance.balance)),
      lockedAtto: String(balance.lockedBalance),
      lockedAlph: attoToAlph(String(balance.lockedBalance)),
      utxos: balance.utxoNum,
      tokens: [...ids]
        .sort()
        .map((id) =>
          addressToken(id, amounts.get(id) ?? '0', locked.get(id) ?? '0', names?.get(id.toLowerCase())),
        ),
    },
  };
}

/**
 * The Address Info document. The address is what the user typed (shown as is only when valid) and the
 * token ids and amounts come from the gateway: each is escaped or put in a code span.
 */
export function addressInfoMarkdown(info: AddressInfo): string {
  const lines = [`# Address ${markdownText(info.address)}`, ''];
  if (!info.valid) {
    lines.push(`- valid: **no** (${markdownText(info.problem ?? 'malformed')})`);
    return lines.join('\n');
  }
  lines.push(`- valid: yes (${markdownText(info.type)})`, `- group: ${info.group}`);
  if (info.gatewayGroup !== undefined && info.gatewayGroup !== info.group)
    lines.push(`- ⚠ the gateway reports group ${info.gatewayGroup}`);
  const b = info.balance;
  if (b) {
    lines.push(
      `- balance: ${b.alph} ALPH (${b.atto} attoALPH)`,
      `- locked: ${b.lockedAlph} ALPH`,
      `- UTXOs: ${b.utxos}`,
      '',
      '## Tokens',
      ...(b.tokens.length ? b.tokens.map(tokenLine) : ['_none_']),
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * One token of the document: a known one as `12.5 SBX (12500000 raw) of token <id>` (a contract's own
 * symbol says so), an unknown one as `<id>: 12500000`; every piece from the chain escaped or in a span.
 */
function tokenLine(t: AddressToken): string {
  if (t.symbol === undefined) {
    const locked = t.locked !== '0' ? ` (locked ${markdownText(t.locked)})` : '';
    return `- ${codeSpan(t.id)}: ${markdownText(t.amount)}${locked}`;
  }
  const claim = t.source === 'contract' ? ', as the token names itself' : '';
  const locked =
    t.locked !== '0'
      ? `; locked ${markdownText(`${t.decimalLocked ?? ''} ${t.symbol}`)} (${markdownText(t.locked)} raw)`
      : '';
  return `- ${markdownText(`${t.decimalAmount ?? ''} ${t.symbol}`)} (${markdownText(t.amount)} raw${claim}) of token ${codeSpan(t.id)}${locked}`;
}

// ---- time ranges ------------------------------------------------------------------------------------------

export const TIME_RANGE_PRESETS = [
  { id: 'last10m', label: 'Last 10 minutes', ms: 10 * 60_000 },
  { id: 'last30m', label: 'Last 30 minutes', ms: 30 * 60_000 },
  { id: 'last1h', label: 'Last hour', ms: 60 * 60_000 },
] as const;

export type TimeRangePreset = (typeof TIME_RANGE_PRESETS)[number]['id'];

/** Longest range accepted: the client splits on 504 and on size, but a day of blocks is already thousands. */
export const MAX_RANGE_MS = 24 * 3600_000;

export function presetRange(id: TimeRangePreset, now: number): { fromTs: number; toTs: number } {
  const p = TIME_RANGE_PRESETS.find((x) => x.id === id);
  if (!p) throw new RangeError(`unknown range ${id}`);
  return { fromTs: now - p.ms, toTs: now };
}

/** Why a typed millisecond timestamp is not usable, or undefined. */
export function timestampProblem(text: string): string | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return 'Enter a millisecond timestamp (digits only), e.g. 1700000000000.';
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n <= 0) return 'The timestamp is out of range.';
  return undefined;
}

export function rangeProblem(fromTs: number, toTs: number): string | undefined {
  if (!(fromTs < toTs)) return 'The end must be after the start.';
  if (toTs - fromTs > MAX_RANGE_MS) return 'Ranges longer than 24 hours are refused; pick a shorter one.';
  return undefined;
}

export interface BlockRow {
  readonly hash: string;
  readonly timestamp: number;
  readonly chainFrom: number;
  readonly chainTo: number;
  readonly height: number;
  readonly txCount: number;
}

/** All chains' blocks in one list, newest first (ties by chain, for a stable order). */
export function blockRows(blocks: Blocks): BlockRow[] {
  return blocks.blocks
    .flat()
    .map((b: BlockEntry) => ({
      hash: b.hash,
      timestamp: b.timestamp,
      chainFrom: b.chainFrom,
      chainTo: b.chainTo,
      height: b.height,
      txCount: b.transactions.length,
    }))
    .sort(
      (a, b) =>
        b.timestamp - a.timestamp ||
        a.chainFrom - b.chainFrom ||
        a.chainTo - b.chainTo ||
        b.height - a.height,
    );
}

/**
 * The blocks of a time range as an aligned plain-text table: thousands of rows stay readable in an
 * editor (a Markdown table is only readable once rendered, and rendering 10,000 rows is slow).
 */
/** How far a range has been read: still reading up to `readTo`, or stopped with a part not read. */
export interface RangeReading {
  /** The parts up to this time were read and more are coming. */
  readonly readTo?: number;
  /** Reading stopped here: this span was not read, and why (the extension's inert text of the error). */
  readonly unread?: { readonly fromTs: number; readonly toTs: number; readonly reason: string };
}

function readingLines(reading: RangeReading | undefined): string[] {
  if (reading?.unread) {
    const { fromTs, toTs, reason } = reading.unread;
    return [
      `Not read: ${new Date(fromTs).toISOString()} to ${new Date(toTs).toISOString()} (${reason}). The blocks below are those before it.`,
    ];
  }
  if (reading?.readTo !== undefined)
    return [
      `Still reading: the blocks up to ${new Date(reading.readTo).toISOString()} are shown; more are coming.`,
    ];
  return [];
}

export function blocksTable(
  fromTs: number,
  toTs: number,
  rows: readonly BlockRow[],
  reading?: RangeReading,
): string {
  const header = ['time (UTC)', 'chain', 'height', 'txs', 'hash'];
  const cells = rows.map((r) => [
    new Date(r.timestamp).toISOString().replace('T', ' ').replace('Z', ''),
    `${r.chainFrom} → ${r.chainTo}`,
    String(r.height),
    String(r.txCount),
    r.hash,
  ]);
  // A loop, not Math.max(...cells): a day of blocks is tens of thousands of rows, past the argument limit.
  const widths = header.map((h, i) => cells.reduce((w, c) => Math.max(w, (c[i] as string).length), h.length));
  // Numbers right-aligned, text left-aligned; the hash is last and needs no padding.
  const line = (c: readonly string[]) =>
    c
      .map((v, i) =>
        i === 2 || i === 3 ? v.padStart(widths[i]!) : i === c.length - 1 ? v : v.padEnd(widths[i]!),
      )
      .join('  ');
  return [
    `Blocks from ${new Date(fromTs).toISOString()} to ${new Date(toTs).toISOString()}: ${rows.length} block(s), newest first`,
    ...readingLines(reading),
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...cells.map(line),
    '',
  ].join('\n');
}
