/**
 * Redaction of secrets from anything that is logged or shown.
 *
 * Two layers: values registered as secret (the API key, the signing key, mnemonic words) are replaced
 * wherever they appear, and anything shaped like a credential (Bearer tokens, X-API-KEY headers, 64-hex
 * private keys next to a key-ish name) is masked even if nobody registered it.
 *
 * It runs on every log line, and log lines carry gateway text, so every pattern is linear: no two
 * neighbouring parts of a pattern can match the same characters (a run of spaces is read by one `\s*`
 * only), so a failed match gives up after one pass instead of trying every split of the run.
 */
export const REDACTED = '‹redacted›';

/** The longest text a redaction returns; a line longer than this is cut after redaction (see below). */
export const MAX_REDACTED_CHARS = 64 * 1024;

/** `name: value`, `name = value`, `"name": "value"`: the name, spaces, an optional closing quote, `:`/`=`. */
const ASSIGNED = String.raw`\s*(?:["']\s*)?[:=]`;

const KEY_LIKE_PATTERNS: readonly RegExp[] = [
  /(authorization\s*[:=]\s*"?bearer\s+)[^\s",}]+/gi,
  /(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  new RegExp(String.raw`(x-api-key${ASSIGNED}\s*["']?)[^\s",}']+`, 'gi'),
  new RegExp(
    String.raw`((?:private_?key|privateKey|secret|mnemonic|apiKey|api_key)${ASSIGNED}\s*["']?)[^"',}\s][^"',}]*`,
    'gi',
  ),
];

export class Redactor {
  private readonly secrets = new Set<string>();

  /** Registers a value that must never appear in output. Short values are ignored (they would mask noise). */
  addSecret(value: string | undefined): void {
    if (!value) return;
    const trimmed = value.trim();
    if (trimmed.length >= 6) this.secrets.add(trimmed);
    // A mnemonic is also masked word by word would be too aggressive (common words); mask the phrase and
    // any run of 3+ consecutive words from it instead.
    const words = trimmed.split(/\s+/);
    if (words.length >= 12) {
      for (let i = 0; i + 3 <= words.length; i++) this.secrets.add(words.slice(i, i + 3).join(' '));
    }
  }

  removeSecret(value: string | undefined): void {
    if (value) this.secrets.delete(value.trim());
  }

  /**
   * The text with every secret masked, at most {@link MAX_REDACTED_CHARS} long. The whole text is
   * redacted before it is cut (a cut first could leave the start of a secret at the end), so the cut
   * only ever removes already-masked text.
   */
  redact(text: string): string {
    let out = text;
    // Longest first, so that a phrase is masked whole before its parts.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    for (const pattern of KEY_LIKE_PATTERNS) out = out.replace(pattern, `$1${REDACTED}`);
    if (out.length <= MAX_REDACTED_CHARS) return out;
    return `${out.slice(0, MAX_REDACTED_CHARS)}… (cut: ${out.length - MAX_REDACTED_CHARS} more characters)`;
  }
}
