/**
 * Thrown for malformed protocol data: bad hex, addresses, amounts, keys or transaction bytes.
 * A distinct class lets callers tell "the input is wrong" apart from network or programming errors,
 * and the message always names what is wrong and where, because it is shown to the user as is.
 */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** Shortens long untrusted input so error messages stay readable (and do not echo megabytes). */
export function preview(value: string, max = 80): string {
  return value.length <= max ? value : `${value.slice(0, max)}…`;
}
