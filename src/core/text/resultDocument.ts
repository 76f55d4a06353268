/**
 * Result documents (Call, Address Info, event listings, Blocks in Time Range) are built from gateway,
 * chain and workspace text, so each has a size bound: one document never holds more than
 * {@link MAX_RESULT_CHARS}, and a cut one says where and how much was left out. The VS Code side
 * (`src/platform/resultsDocument.ts`) keeps the newest documents and applies this to each.
 */

/** The largest result document kept (about 1 MB of text). */
export const MAX_RESULT_CHARS = 1024 * 1024;

/** The longest single value (a field, a return, an argument) written into a result document. */
export const RESULT_VALUE_CHARS = 16 * 1024;

/**
 * The document as it is kept: whole when it fits, otherwise cut at the last line break before the
 * bound (or at the bound when a single line is longer), followed by a note that says so.
 */
export function capResult(content: string, max = MAX_RESULT_CHARS): string {
  if (content.length <= max) return content;
  const lineEnd = content.lastIndexOf('\n', max);
  const cut = lineEnd > max / 2 ? lineEnd : max;
  return (
    `${content.slice(0, cut)}\n\n` +
    `… This result was cut here: it is ${content.length.toLocaleString('en-US')} characters long and ` +
    `only the first ${cut.toLocaleString('en-US')} are kept (the limit is ${max.toLocaleString('en-US')}).\n`
  );
}
