/**
 * Outside text is inert: the one owner of how text that came from a gateway, the chain or a workspace
 * (error details, names, debug messages, event values) is shown.
 *
 * VS Code renders `[label](command:id?args)` in a notification as a clickable link that runs any command
 * with the caller's JSON arguments, renders Markdown and HTML in hovers and tooltips, and `$(icon)` in
 * CodeLens titles and quick picks. So outside text reaches those surfaces only through this module:
 *
 * - {@link plainText} for notifications, modals, tree rows, CodeLens titles, the status bar: control and
 *   bidi characters removed, whitespace collapsed, capped, and the `](` of a link and the `$(` of an icon
 *   broken apart (VS Code needs those characters adjacent);
 * - {@link markdownText} for Markdown surfaces (hovers, tooltips, result documents): every ASCII
 *   punctuation character escaped, so no link, image, HTML tag, emphasis or autolink can form;
 * - {@link codeSpan} for Markdown code spans that cannot be broken out of (the fence is longer than any
 *   backtick run inside, and no line break survives to end the paragraph);
 * - {@link inert}, a template tag whose literal parts are this extension's own words and whose
 *   interpolated values are outside text. Its result, {@link Inert}, is the only thing the notification
 *   helpers of `src/platform/notify.ts` accept.
 *
 * Every function here runs in one linear pass (no regex that can backtrack), whatever the input.
 */

/** The longest outside value kept in one interpolation; a server or a file may send megabytes. */
export const MAX_VALUE_CHARS = 600;
/** The longest notification or modal text as a whole. */
export const MAX_NOTICE_CHARS = 2000;

/** ANSI/VT escape sequences, CSI form: ESC [ params intermediates final. Linear (disjoint classes). */
const ANSI_CSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
/** C0 and C1 controls except tab and newlines (those become spaces or line breaks). */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** Bidi overrides, isolates and marks, zero-width characters that hide or reorder text. */
const INVISIBLES = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** Cuts `text` to `max` characters, saying how long it was. */
export function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/**
 * Removes what can forge or hide text (escape sequences, control and bidi characters) and caps the
 * length. Line breaks are kept when `keepLines` (each line trimmed of trailing spaces), otherwise every
 * run of whitespace becomes one space.
 */
export function cleanText(value: unknown, max = MAX_VALUE_CHARS, keepLines = false): string {
  // A huge input is cut before any pass over it, so the work is bounded by the cap, not the input.
  let text = stringOf(value);
  const originalLength = text.length;
  if (text.length > max * 4 + 64) text = text.slice(0, max * 4 + 64);
  text = text.replace(ANSI_CSI, '').replace(CONTROLS, '').replace(INVISIBLES, '');
  text = keepLines
    ? text
        .replace(/\r\n?/g, '\n')
        .split('\n')
        .map((line) => collapseSpaces(line))
        .join('\n')
        .trim()
    : collapseSpaces(text);
  // The note names the length of what came in, not of what was kept after the first cut.
  return text.length > max || originalLength > max * 4 + 64
    ? `${text.slice(0, max)}… (${originalLength} characters)`
    : text;
}

/** Every run of whitespace (tabs, line breaks, spaces) as one space, trimmed. One pass, no regex. */
function collapseSpaces(text: string): string {
  let out = '';
  let pendingSpace = false;
  for (const ch of text) {
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\u00a0') {
      pendingSpace = out.length > 0;
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += ch;
  }
  return out;
}

function stringOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Inert) return value.text;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  if (value === undefined || value === null) return '';
  if (value instanceof Error) return value.message;
  if (typeof value === 'symbol') return value.toString();
  // An object JSON cannot write (a cycle, a bigint inside) or a function is named by its kind, never by
  // its own toString (a function's would be its source).
  try {
    return JSON.stringify(value) ?? kindOf(value);
  } catch {
    return kindOf(value);
  }
}

function kindOf(value: object): string {
  return Object.prototype.toString.call(value);
}

/**
 * Breaks the character pairs VS Code turns into links and icons: `](` (a Markdown link in a
 * notification, `[label](command:…)`) and `$(` (a codicon in a CodeLens title, a status bar item or a
 * quick pick). A space between them shows the text as it was written, and links nothing.
 */
function defuse(text: string): string {
  return text.split('](').join('] (').split('$(').join('$ (');
}

/** Outside text for a plain-text surface: clean, one line (unless `keepLines`), capped, no link or icon. */
export function plainText(value: unknown, max = MAX_VALUE_CHARS, keepLines = false): string {
  return defuse(cleanText(value, max, keepLines));
}

/**
 * One line of a plain-text document made of outside text: {@link plainText}, keeping up to 8 leading
 * spaces of the indentation the document gave it (plainText collapses them).
 */
export function plainIndentedLine(line: string, max = MAX_VALUE_CHARS): string {
  const body = line.trimStart();
  return `${' '.repeat(Math.min(8, line.length - body.length))}${plainText(body, max)}`;
}

/** Every ASCII punctuation character, each of which CommonMark allows to be backslash-escaped. */
const MARKDOWN_PUNCTUATION = /[!-/:-@[-`{-~]/g;

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

/**
 * Outside text for a Markdown surface: clean, one line, capped, and every ASCII punctuation character
 * backslash-escaped, so no link, image, autolink, HTML tag, entity, heading or emphasis can form. A
 * comma or period between two digits is left as it is: inside a number it starts no Markdown (a list
 * marker needs a space after it, a link or tag other characters), and result documents are read as
 * source, where `1\,000\,000` would be shown with its backslashes.
 */
export function markdownText(value: unknown, max = MAX_VALUE_CHARS): string {
  return cleanText(value, max).replace(MARKDOWN_PUNCTUATION, (ch: string, at: number, text: string) =>
    (ch === ',' || ch === '.') && isDigit(text[at - 1]) && isDigit(text[at + 1]) ? ch : `\\${ch}`,
  );
}

/**
 * Outside text as one Markdown code span that cannot be broken out of: one line (a blank line would end
 * the paragraph and the span with it), fenced with one backtick more than its longest backtick run.
 */
export function codeSpan(value: unknown, max = MAX_VALUE_CHARS): string {
  const text = cleanText(value, max);
  let longest = 0;
  let run = 0;
  for (const ch of text) {
    run = ch === '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(longest + 1);
  // A span that starts or ends with a backtick needs a space inside the fence (CommonMark strips one).
  const padded = text.startsWith('`') || text.endsWith('`') || text === '' ? ` ${text} ` : text;
  return `${fence}${padded}${fence}`;
}

/**
 * Text safe to show on a plain-text surface: this extension's own words with outside values made inert.
 * Made only by {@link inert} and {@link inertLines}; the notification helpers take nothing else.
 */
export class Inert {
  /** @internal use {@link inert} */
  constructor(
    readonly text: string,
    token: typeof INERT_TOKEN,
  ) {
    if (token !== INERT_TOKEN) throw new Error('Inert text is made by inert`…` only');
  }

  toString(): string {
    return this.text;
  }
}

const INERT_TOKEN: unique symbol = Symbol('Inert');

/**
 * A template tag: `inert\`Deployed ${name} at ${address}\``. The literal parts are trusted (they are
 * this extension's source code); every interpolated value is outside text and passes through
 * {@link plainText}, except an {@link Inert} value, which is already safe and is kept as it is.
 */
export function inert(strings: TemplateStringsArray, ...values: unknown[]): Inert {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += value instanceof Inert ? value.text : plainText(value);
    out += strings[i + 1] ?? '';
  });
  return new Inert(cap(out, MAX_NOTICE_CHARS), INERT_TOKEN);
}

/** Several lines of outside text (a modal's detail), each made inert, line breaks kept. */
export function inertLines(lines: readonly unknown[], maxLines = 80): Inert {
  const kept = lines.slice(0, maxLines).map((line) => (line instanceof Inert ? line.text : plainText(line)));
  if (lines.length > maxLines) kept.push(`… ${lines.length - maxLines} more line(s)`);
  return new Inert(cap(kept.join('\n'), MAX_NOTICE_CHARS * 4), INERT_TOKEN);
}

/**
 * Markdown safe to render: this extension's own Markdown with outside values escaped. Made only by
 * {@link safeMarkdown} (and {@link markdownCode}); the platform's MarkdownString helper takes nothing else.
 */
export class SafeMarkdown {
  /** @internal use safeMarkdown`…` */
  constructor(
    readonly markdown: string,
    token: typeof INERT_TOKEN,
  ) {
    if (token !== INERT_TOKEN) throw new Error('Safe Markdown is made by safeMarkdown`…` only');
  }

  toString(): string {
    return this.markdown;
  }
}

/**
 * A template tag for Markdown: the literal parts are this extension's own Markdown; every interpolated
 * value is outside text and is escaped by {@link markdownText} (a {@link SafeMarkdown} value is kept).
 */
export function safeMarkdown(strings: TemplateStringsArray, ...values: unknown[]): SafeMarkdown {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += value instanceof SafeMarkdown ? value.markdown : markdownText(value);
    out += strings[i + 1] ?? '';
  });
  return new SafeMarkdown(out, INERT_TOKEN);
}

/** Outside text as a Markdown code span that cannot be broken out of (see {@link codeSpan}). */
export function markdownCode(value: unknown, max = MAX_VALUE_CHARS): SafeMarkdown {
  return new SafeMarkdown(codeSpan(value, max), INERT_TOKEN);
}

/** Several pieces of safe Markdown joined by `separator` (this extension's own). */
export function joinMarkdown(parts: readonly SafeMarkdown[], separator = '\n\n'): SafeMarkdown {
  return new SafeMarkdown(parts.map((p) => p.markdown).join(separator), INERT_TOKEN);
}

/**
 * A link that runs one of this extension's commands with arguments it built itself: the arguments are
 * JSON, URI-encoded, with the parentheses that would end a Markdown link destination encoded too.
 */
export function commandLink(label: SafeMarkdown, command: string, args: unknown): SafeMarkdown {
  const query = encodeURIComponent(JSON.stringify(args)).replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'));
  return new SafeMarkdown(`[${label.markdown}](command:${command}?${query})`, INERT_TOKEN);
}
