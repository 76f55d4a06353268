/**
 * A small Ralph declaration scanner: where contracts, fields, events, functions, constants, enums and
 * structs are declared, and where `assert!` / `checkCaller!` / `panic!` and `emit` are called. It is not a
 * compiler: it lexes (comments, backtick strings with `${...}` interpolations, byte and address literals)
 * and follows braces, which is all the editor needs to put chain data on the right line. Anything it does
 * not understand is skipped, never thrown: a half-typed file in the editor must still map what it can.
 *
 * Positions are 0-based lines and UTF-16 columns, as VS Code counts them.
 */

export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Span {
  readonly start: Position;
  readonly end: Position;
}

export type ContainerKind = 'Contract' | 'Abstract Contract' | 'Interface' | 'TxScript' | 'AssetScript';

export type RalphDeclKind =
  'contract' | 'field' | 'event' | 'function' | 'constant' | 'enum' | 'enumField' | 'struct' | 'mapping';

export interface RalphDecl {
  readonly kind: RalphDeclKind;
  readonly name: string;
  /** The span of the name (where Go to Declaration lands and the lens sits). */
  readonly span: Span;
  /** The enclosing Contract/Interface/TxScript, or the enum for an enum field; none at top level. */
  readonly container?: string;
  /** For enum fields: the contract the enum is declared in (none for a global enum). */
  readonly owner?: string;
  /** For contracts: Contract, Abstract Contract, Interface, TxScript, AssetScript. */
  readonly containerKind?: ContainerKind;
  /** For contracts: what it `extends` and `implements`, in order. */
  readonly parents?: readonly string[];
  /** For functions: declared `pub`. */
  readonly isPublic?: boolean;
  /** For functions: has a body (interface methods do not). */
  readonly hasBody?: boolean;
  /** For functions: parameter names in order. */
  readonly params?: readonly string[];
  /** For constants and enum fields: the literal as written (`7`, `#00`, `@1Dr…`), when it is one token. */
  readonly value?: string;
}

export type CheckKind = 'assert' | 'checkCaller' | 'panic';

/** An `assert!(cond, code)`, `checkCaller!(cond, code)` or `panic!(code)` call. */
export interface RalphCheckSite {
  readonly kind: CheckKind;
  readonly span: Span;
  readonly container?: string;
  readonly functionName?: string;
  /** The error-code argument as written, whitespace removed (`ErrorCodes.StepTooLarge`, `7`); undefined for `panic!()`. */
  readonly errorArg?: string;
}

/** An `emit Name(...)` statement. */
export interface RalphEmitSite {
  readonly event: string;
  readonly span: Span;
  readonly container?: string;
  readonly functionName?: string;
  /** The arguments as written, trimmed, one per top-level comma. */
  readonly args: readonly string[];
}

export interface RalphScan {
  readonly decls: readonly RalphDecl[];
  readonly checks: readonly RalphCheckSite[];
  readonly emits: readonly RalphEmitSite[];
}

type TokenKind = 'ident' | 'number' | 'string' | 'bytes' | 'address' | 'punct';

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;

/**
 * Skips a backtick string starting at `i` (the opening backtick); returns the index after it. An
 * interpolation is code: it may hold braces and strings of its own, nested to any depth. The nesting is
 * kept on an explicit stack (not by recursion), so a file of ten thousand nested `` `${ `` cannot
 * overflow the call stack.
 */
function skipTemplate(text: string, i: number): number {
  /** Open contexts, innermost last: a template's text, or an interpolation's code with its brace depth. */
  const open: ({ kind: 'text' } | { kind: 'code'; depth: number })[] = [{ kind: 'text' }];
  let j = i + 1;
  while (j < text.length) {
    const c = text[j];
    const top = open[open.length - 1]!;
    if (top.kind === 'text') {
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === '`') {
        open.pop();
        if (open.length === 0) return j + 1;
      } else if (c === '$' && text[j + 1] === '{') {
        open.push({ kind: 'code', depth: 1 });
        j++;
      }
    } else if (c === '`') {
      open.push({ kind: 'text' });
    } else if (c === '{') {
      top.depth++;
    } else if (c === '}' && --top.depth === 0) {
      open.pop();
    }
    j++;
  }
  return text.length;
}

function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
      continue;
    }
    if (c === '`') {
      const end = skipTemplate(text, i);
      tokens.push({ kind: 'string', text: text.slice(i, end), start: i, end });
      i = end;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"' && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      const end = Math.min(n, j + 1);
      tokens.push({ kind: 'string', text: text.slice(i, end), start: i, end });
      i = end;
      continue;
    }
    if (c === '#') {
      let j = i + 1;
      while (j < n && /[0-9a-fA-F]/.test(text[j]!)) j++;
      tokens.push({ kind: 'bytes', text: text.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    if (c === '@' && i + 1 < n && /[1-9A-HJ-NP-Za-km-z]/.test(text[i + 1]!)) {
      // `@using` is an annotation, `@1DrDy…` an address literal: both start with a letter or digit.
      let j = i + 1;
      while (j < n && IDENT_PART.test(text[j]!)) j++;
      const word = text.slice(i + 1, j);
      if (/^[a-z]+$/.test(word) && word.length < 20) {
        tokens.push({ kind: 'punct', text: '@', start: i, end: i + 1 });
        i++;
      } else {
        tokens.push({ kind: 'address', text: text.slice(i, j), start: i, end: j });
        i = j;
      }
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[0-9a-zA-Z_.]/.test(text[j]!)) {
        // `1.5 alph` is a number; `x.1` does not occur, but `arr[0].field` would: stop at `.` + letter.
        if (text[j] === '.' && !/[0-9]/.test(text[j + 1] ?? '')) break;
        j++;
      }
      tokens.push({ kind: 'number', text: text.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < n && IDENT_PART.test(text[j]!)) j++;
      tokens.push({ kind: 'ident', text: text.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    if (c === '-' && text[i + 1] === '>') {
      tokens.push({ kind: 'punct', text: '->', start: i, end: i + 2 });
      i += 2;
      continue;
    }
    tokens.push({ kind: 'punct', text: c, start: i, end: i + 1 });
    i++;
  }
  return tokens;
}

/** Offset → line/character, by binary search over line starts. */
function positionIndex(text: string): (offset: number) => Position {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - starts[lo]! };
  };
}

const CONTAINER_WORDS = new Set(['Contract', 'Interface', 'TxScript', 'AssetScript']);
const CHECK_WORDS: Record<string, CheckKind> = {
  assert: 'assert',
  checkCaller: 'checkCaller',
  panic: 'panic',
};

interface Frame {
  readonly kind: 'container' | 'function' | 'enum' | 'struct' | 'block';
  readonly name?: string;
}

/**
 * A frame on the brace stack with the names it is inside: the innermost container and function, read
 * from its parent when it is pushed. Asking "which contract am I in" is then O(1), not a walk down the
 * stack, which made nested containers quadratic.
 */
interface OpenFrame extends Frame {
  readonly container?: string;
  readonly functionName?: string;
}

/** Scans one `.ral` file. Never throws: unknown or broken syntax is skipped. */
export function scanRalph(text: string): RalphScan {
  return new RalphScanner(text).scan();
}

/**
 * One pass over the tokens of a file. Each declaration form has its own reader (`readContainer`,
 * `readFunction`, ...) that returns the index after what it read, or undefined when the tokens at `i`
 * are not that form; `scan` tries them in order.
 */
class RalphScanner {
  private readonly tokens: Token[];
  private readonly pos: (offset: number) => Position;
  private readonly decls: RalphDecl[] = [];
  private readonly checks: RalphCheckSite[] = [];
  private readonly emits: RalphEmitSite[] = [];
  private readonly stack: OpenFrame[] = [];
  /** A `{` that the next push should use (set by a declaration header), else a plain block. */
  private pending: Frame | undefined;

  constructor(private readonly text: string) {
    this.tokens = lex(text);
    this.pos = positionIndex(text);
  }

  scan(): RalphScan {
    const readers = [
      (i: number) => this.readContainer(i),
      (i: number) => this.readEnumOrStruct(i),
      (i: number) => this.readEnumField(i),
      (i: number) => (this.top()?.kind === 'struct' ? i + 1 : undefined),
      (i: number) => this.readConstant(i),
      (i: number) => this.readEvent(i),
      (i: number) => this.readMapping(i),
      (i: number) => this.readFunction(i),
      (i: number) => this.readCheck(i),
      (i: number) => this.readEmit(i),
    ];
    let i = 0;
    while (i < this.tokens.length) {
      const t = this.tokens[i]!;
      if (t.kind === 'punct') {
        if (t.text === '{') {
          this.push(this.pending ?? { kind: 'block' });
          this.pending = undefined;
        } else if (t.text === '}') {
          this.stack.pop();
        }
        i++;
        continue;
      }
      let next: number | undefined;
      if (t.kind === 'ident') {
        for (const read of readers) {
          next = read(i);
          if (next !== undefined) break;
        }
      }
      i = next ?? i + 1;
    }
    return { decls: this.decls, checks: this.checks, emits: this.emits };
  }

  // ---- token and frame helpers ----

  private at(i: number): Token | undefined {
    return this.tokens[i];
  }
  private isPunct(i: number, p: string): boolean {
    return this.at(i)?.kind === 'punct' && this.at(i)?.text === p;
  }
  private isIdent(i: number, w?: string): boolean {
    return this.at(i)?.kind === 'ident' && (w === undefined || this.at(i)?.text === w);
  }
  private spanOf(t: Token): Span {
    return { start: this.pos(t.start), end: this.pos(t.end) };
  }
  private top(): OpenFrame | undefined {
    return this.stack[this.stack.length - 1];
  }
  /** `{ container }` of the innermost container, or nothing (spread into a declaration). */
  private inContainer(): { container?: string } {
    const c = this.top()?.container;
    return c ? { container: c } : {};
  }
  /** `{ functionName }` of the innermost function, or nothing. */
  private inFunction(): { functionName?: string } {
    const f = this.top()?.functionName;
    return f ? { functionName: f } : {};
  }
  private push(frame: Frame): void {
    const parent = this.top();
    const inContainer = frame.kind === 'container' ? frame.name : parent?.container;
    const inFunction = frame.kind === 'function' ? frame.name : parent?.functionName;
    this.stack.push({
      ...frame,
      ...(inContainer !== undefined ? { container: inContainer } : {}),
      ...(inFunction !== undefined ? { functionName: inFunction } : {}),
    });
  }

  /** Index after the group that opens at `i` ((, [ or {), or tokens.length when unbalanced. */
  private skipGroup(i: number): number {
    const open = this.at(i)!.text;
    const close = open === '(' ? ')' : open === '[' ? ']' : '}';
    let depth = 0;
    for (let j = i; j < this.tokens.length; j++) {
      const t = this.tokens[j]!;
      if (t.kind !== 'punct') continue;
      if (t.text === open) depth++;
      else if (t.text === close) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return this.tokens.length;
  }

  /** Top-level arguments of the group opening at `i`, as source text. */
  private groupArgs(i: number): { args: string[]; next: number } {
    const next = this.skipGroup(i);
    const args: string[] = [];
    let depth = 0;
    let argStart = this.at(i)!.end;
    for (let j = i; j < next; j++) {
      const t = this.tokens[j]!;
      if (t.kind !== 'punct') continue;
      if ('([{'.includes(t.text)) depth++;
      else if (')]}'.includes(t.text)) {
        depth--;
        if (depth === 0) args.push(this.text.slice(argStart, t.start).trim());
      } else if (t.text === ',' && depth === 1) {
        args.push(this.text.slice(argStart, t.start).trim());
        argStart = t.end;
      }
    }
    // `f()` has no arguments, not one empty one.
    return { args: args.length === 1 && args[0] === '' ? [] : args, next };
  }

  // ---- declaration readers ----

  /** `Contract Name(fields) extends A(x), B(y) implements I { ... }` */
  private readContainer(i: number): number | undefined {
    const t = this.at(i)!;
    if (!CONTAINER_WORDS.has(t.text) || !this.isIdent(i + 1) || this.top()?.functionName) return undefined;
    const nameTok = this.at(i + 1)!;
    const containerKind = (this.isIdent(i - 1, 'Abstract') ? 'Abstract Contract' : t.text) as ContainerKind;
    let j = i + 2;
    if (this.isPunct(j, '(')) j = this.readFields(j, nameTok.text);
    const { parents, next } = this.readParents(j);
    this.decls.push({
      kind: 'contract',
      name: nameTok.text,
      span: this.spanOf(nameTok),
      containerKind,
      parents,
    });
    if (this.isPunct(next, '{')) this.pending = { kind: 'container', name: nameTok.text };
    return next;
  }

  /** The fields `mut? name: Type` at the top level of the group at `open`; the index after it. */
  private readFields(open: number, container: string): number {
    const end = this.skipGroup(open);
    let depth = 0;
    for (let k = open; k < end; k++) {
      const f = this.tokens[k]!;
      if (f.kind === 'punct' && '([{'.includes(f.text)) depth++;
      else if (f.kind === 'punct' && ')]}'.includes(f.text)) depth--;
      else if (depth === 1 && f.kind === 'ident' && this.isPunct(k + 1, ':') && !this.isPunct(k + 2, ':')) {
        this.decls.push({ kind: 'field', name: f.text, span: this.spanOf(f), container });
      }
    }
    return end;
  }

  /** `extends A(x), B(y) implements I` up to the body's `{`. */
  private readParents(from: number): { parents: string[]; next: number } {
    const parents: string[] = [];
    let mode: 'extends' | 'implements' | undefined;
    let j = from;
    while (j < this.tokens.length && !this.isPunct(j, '{')) {
      const h = this.tokens[j]!;
      if (h.kind === 'ident' && (h.text === 'extends' || h.text === 'implements')) mode = h.text;
      else if (h.kind === 'ident' && mode) {
        parents.push(h.text);
        if (this.isPunct(j + 1, '(')) {
          j = this.skipGroup(j + 1);
          continue;
        }
      } else if (h.kind === 'ident' && CONTAINER_WORDS.has(h.text)) break; // a broken header
      j++;
    }
    return { parents, next: j };
  }

  private readEnumOrStruct(i: number): number | undefined {
    const t = this.at(i)!;
    if ((t.text !== 'enum' && t.text !== 'struct') || !this.isIdent(i + 1) || !this.isPunct(i + 2, '{'))
      return undefined;
    const nameTok = this.at(i + 1)!;
    this.decls.push({ kind: t.text, name: nameTok.text, span: this.spanOf(nameTok), ...this.inContainer() });
    this.pending = { kind: t.text, name: nameTok.text };
    return i + 2;
  }

  private readEnumField(i: number): number | undefined {
    const frame = this.top();
    if (frame?.kind !== 'enum' || !this.isPunct(i + 1, '=')) return undefined;
    const t = this.at(i)!;
    const v = this.at(i + 2);
    const owner = frame.container;
    this.decls.push({
      kind: 'enumField',
      name: t.text,
      span: this.spanOf(t),
      container: frame.name!,
      ...(owner ? { owner } : {}),
      ...(v && v.kind !== 'punct' ? { value: v.text } : {}),
    });
    return i + 2;
  }

  private readConstant(i: number): number | undefined {
    if (
      !this.isIdent(i, 'const') ||
      !this.isIdent(i + 1) ||
      !this.isPunct(i + 2, '=') ||
      this.top()?.functionName
    )
      return undefined;
    const nameTok = this.at(i + 1)!;
    const v = this.at(i + 3);
    this.decls.push({
      kind: 'constant',
      name: nameTok.text,
      span: this.spanOf(nameTok),
      ...this.inContainer(),
      ...(v && v.kind !== 'punct' && v.kind !== 'ident' ? { value: v.text } : {}),
    });
    return i + 3;
  }

  private readEvent(i: number): number | undefined {
    if (
      !this.isIdent(i, 'event') ||
      !this.isIdent(i + 1) ||
      !this.isPunct(i + 2, '(') ||
      this.top()?.functionName
    )
      return undefined;
    const nameTok = this.at(i + 1)!;
    this.decls.push({ kind: 'event', name: nameTok.text, span: this.spanOf(nameTok), ...this.inContainer() });
    return this.skipGroup(i + 2);
  }

  private readMapping(i: number): number | undefined {
    if (!this.isIdent(i, 'mapping') || !this.isPunct(i + 1, '[') || this.top()?.functionName)
      return undefined;
    const end = this.skipGroup(i + 1);
    const nameTok = this.at(end);
    if (nameTok?.kind === 'ident') {
      this.decls.push({
        kind: 'mapping',
        name: nameTok.text,
        span: this.spanOf(nameTok),
        ...this.inContainer(),
      });
    }
    return end + 1;
  }

  private readFunction(i: number): number | undefined {
    if (!this.isIdent(i, 'fn') || !this.isIdent(i + 1) || !this.isPunct(i + 2, '(')) return undefined;
    const nameTok = this.at(i + 1)!;
    const { args, next } = this.groupArgs(i + 2);
    let j = next;
    if (this.isPunct(j, '-') && this.isPunct(j + 1, '>')) j++; // never produced by the lexer; defensive
    if (this.isPunct(j, '->')) {
      j++;
      if (this.isPunct(j, '(') || this.isPunct(j, '[')) j = this.skipGroup(j);
      else if (this.isIdent(j)) j++;
    }
    const hasBody = this.isPunct(j, '{');
    this.decls.push({
      kind: 'function',
      name: nameTok.text,
      span: this.spanOf(nameTok),
      ...this.inContainer(),
      isPublic: this.isIdent(i - 1, 'pub'),
      hasBody,
      params: args
        .map((a) =>
          a
            .replace(/^mut\s+/, '')
            .split(':')[0]!
            .trim(),
        )
        .filter(Boolean),
    });
    if (hasBody) this.pending = { kind: 'function', name: nameTok.text };
    return j;
  }

  private readCheck(i: number): number | undefined {
    const t = this.at(i)!;
    const check = Object.hasOwn(CHECK_WORDS, t.text) ? CHECK_WORDS[t.text] : undefined;
    if (!check || !this.isPunct(i + 1, '!') || !this.isPunct(i + 2, '(')) return undefined;
    const { args, next } = this.groupArgs(i + 2);
    const raw = check === 'panic' ? args[0] : args[1];
    this.checks.push({
      kind: check,
      span: { start: this.pos(t.start), end: this.pos(this.tokens[next - 1]!.end) },
      ...this.inContainer(),
      ...this.inFunction(),
      ...(raw ? { errorArg: raw.replace(/\s+/g, '') } : {}),
    });
    return next;
  }

  private readEmit(i: number): number | undefined {
    const t = this.at(i)!;
    if (t.text !== 'emit' || !this.isIdent(i + 1) || !this.isPunct(i + 2, '(')) return undefined;
    const { args, next } = this.groupArgs(i + 2);
    this.emits.push({
      event: this.at(i + 1)!.text,
      span: { start: this.pos(t.start), end: this.pos(this.tokens[next - 1]!.end) },
      ...this.inContainer(),
      ...this.inFunction(),
      args,
    });
    return next;
  }
}
