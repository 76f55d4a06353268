/**
 * The syntax of a type string as the Ralph compiler writes it into an artifact, checked when the artifact
 * is read. A type reaches prompts, validation messages, views and generated scripts, so a string that no
 * compiler writes (one carrying `[label](command:…)`, spaces, quotes, HTML) refuses the file before any of
 * those sees it.
 *
 *     type   := name | array | tuple
 *     name   := a Ralph identifier (the primitives `Bool`, `I256`, `U256`, `ByteVec`, `Address`, and the
 *               names of structs and contracts)
 *     array  := '[' type ';' digits ']'              e.g. `[U256;3]`, `[[Bool;2];3]`, `[(U256,U256);2]`
 *     tuple  := '(' type (',' type)* ')'             e.g. `(U256,Bool)` (multiple returns, map values)
 *     map    := 'Map[' type ',' type ']'             only as a whole `mapsSig` type: `Map[ByteVec,U256]`
 *
 * Only the syntax is checked: whether a name is a known struct or an array size is usable is decided where
 * the values are decoded (vals.ts), so a well-formed type this version cannot read degrades one field, not
 * the file. One pass over at most MAX_TYPE_CHARS characters, nesting bounded: no backtracking.
 */

/** How deeply arrays and tuples may nest in one type string (the decoder's own bound, vals.ts). */
export const MAX_TYPE_NESTING = 16;

const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_]/;
const DIGIT = /[0-9]/;

/** One character of the (possibly hostile) type, as a message may show it: printable ASCII or its code. */
function shownChar(code: number): string {
  return code > 0x20 && code < 0x7f
    ? `'${String.fromCodePoint(code)}'`
    : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Thrown inside the parser with the position and what was expected; turned into a problem text. */
class SyntaxProblem extends Error {}

/** A recursive-descent reader over one type string. */
class TypeReader {
  private at = 0;

  constructor(private readonly text: string) {}

  /** Reads the whole string as one type (a map when `allowMap`), or throws a SyntaxProblem. */
  readAll(allowMap: boolean): void {
    if (allowMap && this.text.startsWith('Map[')) this.map();
    else this.type(0);
    if (this.at !== this.text.length) this.expected('the end of the type');
  }

  private map(): void {
    this.at += 'Map['.length;
    this.type(1);
    this.expect(',');
    this.type(1);
    this.expect(']');
  }

  private type(depth: number): void {
    if (depth > MAX_TYPE_NESTING) throw new SyntaxProblem(`nests more than ${MAX_TYPE_NESTING} levels deep`);
    const c = this.text[this.at];
    if (c === '[') this.array(depth);
    else if (c === '(') this.tuple(depth);
    else this.name();
  }

  private array(depth: number): void {
    this.at++;
    this.type(depth + 1);
    this.expect(';');
    const start = this.at;
    while (this.at < this.text.length && DIGIT.test(this.text[this.at] as string)) this.at++;
    if (this.at === start) this.expected('an array size (digits)');
    this.expect(']');
  }

  private tuple(depth: number): void {
    this.at++;
    this.type(depth + 1);
    while (this.text[this.at] === ',') {
      this.at++;
      this.type(depth + 1);
    }
    this.expect(')');
  }

  private name(): void {
    const start = this.at;
    if (!IDENTIFIER_START.test(this.text[this.at] ?? '')) this.expected('a type name');
    while (this.at < this.text.length && IDENTIFIER_PART.test(this.text[this.at] as string)) this.at++;
    if (this.at === start) this.expected('a type name');
  }

  private expect(char: string): void {
    if (this.text[this.at] !== char) this.expected(`'${char}'`);
    this.at++;
  }

  private expected(what: string): never {
    const found =
      this.at < this.text.length ? shownChar(this.text.codePointAt(this.at) as number) : 'the end';
    throw new SyntaxProblem(`expected ${what} at character ${this.at + 1}, found ${found}`);
  }
}

/**
 * Why `type` is not a type the Ralph compiler writes, or undefined when it is one. `allowMap` accepts a
 * `Map[K,V]` as the whole type (a `mapsSig` entry). The reason names the position, never quotes the
 * type (the caller names the file and the field; the text itself may be hostile).
 */
export function ralphTypeProblem(type: string, { allowMap = false } = {}): string | undefined {
  if (type.length === 0) return 'expected a type, got an empty string';
  try {
    new TypeReader(type).readAll(allowMap);
    return undefined;
  } catch (error) {
    if (!(error instanceof SyntaxProblem)) throw error;
    return `not a Ralph type (Bool, I256, U256, ByteVec, Address, [T;N], (T,…) or a struct or contract name): ${error.message}`;
  }
}
