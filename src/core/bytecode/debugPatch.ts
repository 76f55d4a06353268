/**
 * The debug bytecode of a contract, as `@alephium/cli` deploys it on a devnet: the release bytecode with
 * the compiler's `bytecodeDebugPatch` (from `artifacts/.project.json`) applied. The patch is a run of
 * operations on the hex text: `=n` copies the next n hex characters, `+hex` inserts hex, `-n` skips n
 * (n in decimal); an empty patch means the release code itself. The result keeps `emit Debug`'s
 * instructions, which the release code drops.
 *
 * The patch comes from the workspace, so it is read in one pass, and anything the compiler would not
 * write (an operation past the end of the code, a count that is not decimal, a result with half a byte) is refused
 * rather than applied in part.
 */

/** A patch that cannot be applied; the message says where. */
export class DebugPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DebugPatchError';
  }
}

const isHexChar = (c: string) => (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
const isDigit = (c: string) => c >= '0' && c <= '9';

/** The debug bytecode (lower-case hex) of `releaseHex` with `patch` applied. */
export function buildDebugBytecode(releaseHex: string, patch: string): string {
  if (patch === '') return releaseHex;
  const code = releaseHex.toLowerCase();
  const out: string[] = [];
  let at = 0;
  let i = 0;
  while (i < patch.length) {
    const op = patch[i] as string;
    if (op !== '=' && op !== '+' && op !== '-')
      throw new DebugPatchError(
        `the debug patch has '${op}' at character ${i}, not an operation (=, + or -)`,
      );
    let j = i + 1;
    while (j < patch.length && isHexChar(patch[j] as string)) j++;
    const operand = patch.slice(i + 1, j);
    if (op === '+') {
      // A diff of the hex text, character by character: an insert may be half a byte.
      out.push(operand);
    } else {
      if (operand === '' || ![...operand].every(isDigit))
        throw new DebugPatchError(
          `the debug patch has a count that is not a decimal number at character ${i}`,
        );
      const length = Number(operand);
      if (at + length > code.length)
        throw new DebugPatchError(`the debug patch reads past the end of the bytecode at character ${i}`);
      if (op === '=') out.push(code.slice(at, at + length));
      at += length;
    }
    i = j;
  }
  const debug = out.join('');
  if (debug.length % 2 !== 0) throw new DebugPatchError('the debug patch leaves half a byte of bytecode');
  return debug;
}
