/**
 * The node refuses a transaction it cannot fund (a transfer, a deploy) with "Not enough balance: got N, expected M", both in atto:
 * numbers of 20-30 digits nobody reads. These are its words again in ALPH beside atto, with the sender's
 * balance when it is known, since the balance is the reason.
 */
import { attoToAlph } from '../protocol';

export interface ShortOfAlph {
  /** What the inputs the node could choose hold (atto). */
  readonly got: bigint;
  /** What the transaction needs, the fee included (atto). */
  readonly expected: bigint;
}

const PREFIX = 'Not enough balance: got ';
const MIDDLE = ', expected ';
/** The most digits taken from the node's text (a U256 has 78). */
const MAX_DIGITS = 80;

function isDigits(text: string): boolean {
  if (text.length === 0 || text.length > MAX_DIGITS) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function leadingDigits(text: string): string {
  let end = 0;
  while (end < text.length && end <= MAX_DIGITS && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57)
    end++;
  return text.slice(0, end);
}

/** The amounts of the node's "Not enough balance: got N, expected M", or undefined (linear, no regex). */
export function shortOfAlph(detail: string): ShortOfAlph | undefined {
  const text = detail.slice(0, 4000);
  const start = text.indexOf(PREFIX);
  if (start < 0) return undefined;
  const rest = text.slice(start + PREFIX.length);
  const middle = rest.indexOf(MIDDLE);
  if (middle < 0) return undefined;
  const got = rest.slice(0, middle);
  const expected = leadingDigits(rest.slice(middle + MIDDLE.length));
  if (!isDigits(got) || !isDigits(expected)) return undefined;
  return { got: BigInt(got), expected: BigInt(expected) };
}

function alphText(atto: bigint): string {
  return `${attoToAlph(atto)} ALPH (${atto} atto)`;
}

/**
 * "Not enough ALPH: the transaction needs 100.002 ALPH (… atto) with the fee; the outputs the node could
 * spend hold 5 ALPH (… atto). The balance of <address> is 5 ALPH (… atto)[, 1 ALPH of it locked]."
 */
export function shortOfAlphText(
  short: ShortOfAlph,
  address: string,
  balance?: { readonly balance: string | bigint; readonly lockedBalance: string | bigint },
): string {
  const words = [
    `Not enough ALPH: the transaction needs ${alphText(short.expected)} with the fee; the outputs the node could spend hold ${alphText(short.got)}.`,
  ];
  if (balance) {
    const locked = BigInt(balance.lockedBalance);
    words.push(
      `The balance of ${address} is ${alphText(BigInt(balance.balance))}${locked > 0n ? `, ${attoToAlph(locked)} ALPH of it locked` : ''}.`,
    );
  }
  return words.join(' ');
}
