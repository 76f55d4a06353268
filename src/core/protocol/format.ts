/** How protocol values are written for people: shared by the confirmations, the checks and the views. */
import { attoToAlph } from './units';

/** "1.5 ALPH (1500000000000000000 atto)": both, because a decimal slip is exactly what we guard against. */
export function formatAlph(atto: bigint): string {
  return `${attoToAlph(atto)} ALPH (${atto} atto)`;
}

/** "abcdef0123…89abcd": enough to recognise a txId in a list without the full 64 digits. */
export function shortTxId(txId: string): string {
  return txId.length > 20 ? `${txId.slice(0, 10)}…${txId.slice(-6)}` : txId;
}
