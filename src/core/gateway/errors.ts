/**
 * Typed errors of the gateway client. Every error carries a stable `kind` (an HTTP error its `status` too),
 * and that is what code branches on, never message text. The body's `detail` is for logs and for showing
 * (the spec: "for logs, not branching"); three named readers look into it where the spec gives no other
 * signal (see {@link GatewayHttpError.detail}).
 */

/** Kinds that come from an HTTP status of the spec's error table. */
export type HttpErrorKind =
  'badRequest' | 'unauthorized' | 'notFound' | 'rateLimited' | 'server' | 'unavailable' | 'timeout';

export type GatewayErrorKind =
  | HttpErrorKind
  | 'schema'
  | 'validation'
  | 'network'
  | 'cancelled'
  | 'missingKey'
  | 'callFailed'
  | 'submitUnknown';

export abstract class GatewayError extends Error {
  /** The class's name as `error.name` shows it: class names do not survive minification, this string does. */
  static readonly brand: string = 'GatewayError';
  abstract readonly kind: GatewayErrorKind;
  /** The endpoint (e.g. `GET /transactions/status`) the error belongs to, when there is one. */
  readonly endpoint: string | undefined;

  protected constructor(message: string, endpoint: string | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.endpoint = endpoint;
    // One string per class names it: logs and messages read it; nothing branches on it (`instanceof` does,
    // since every bundle shares one module runtime and so one copy of each class).
    this.name = new.target.brand;
  }
}

export function isGatewayError(error: unknown): error is GatewayError {
  return error instanceof GatewayError;
}

/** Maps an HTTP status to the error table's row. Statuses outside the table fall into the nearest row. */
export function kindOfStatus(status: number): HttpErrorKind {
  switch (status) {
    case 400:
      return 'badRequest';
    case 401:
    case 403:
      return 'unauthorized';
    case 404:
      return 'notFound';
    case 429:
      return 'rateLimited';
    case 503:
      return 'unavailable';
    case 504:
    case 408:
      return 'timeout';
    default:
      return status >= 500 ? 'server' : 'badRequest';
  }
}

/** Longest `detail` kept in a message or a log line; a server may send megabytes. */
export const MAX_DETAIL_CHARS = 2048;

/**
 * What a server said, made safe to show: control characters (ANSI escapes, CR/LF that would forge log
 * lines, NUL, bidi overrides) become spaces or are dropped, and the text is cut to MAX_DETAIL_CHARS.
 */
export function sanitizeDetail(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const clean = text
    // ANSI/VT escape sequences first, whole, so their parameters do not survive as text.
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[\t\n\r]+/g, ' ')
    .trim();
  return clean.length > MAX_DETAIL_CHARS
    ? `${clean.slice(0, MAX_DETAIL_CHARS)}… (${clean.length} characters)`
    : clean;
}

const HINTS: Record<HttpErrorKind, string> = {
  badRequest: 'The request was rejected; fix it before trying again.',
  unauthorized: 'The API key was refused (missing, wrong, expired or revoked); it must be replaced.',
  notFound: 'Not found.',
  rateLimited: 'Rate limit exceeded.',
  server: 'The node reported an internal error.',
  unavailable: 'The node is still syncing.',
  timeout: 'The gateway timed out.',
};

export class GatewayHttpError extends GatewayError {
  static override readonly brand: string = 'GatewayHttpError';
  readonly kind: HttpErrorKind;
  readonly status: number;
  /**
   * The body's `detail` (cleaned, cut to 2 KB and redacted by the pipeline), for logs and for showing to the
   * user. Branch on `kind` and `status` instead, except in the three readers docs/ARCHITECTURE.md names and
   * justifies ("The status decides, not the detail"), where the spec gives no other signal and none decides
   * what may be signed or sent: `monthlyQuotaEnd` (quotaLock.ts: a 429 about the month is the monthly
   * quota), `shortOfAlphWords` (platform/signing.ts: the words of a "Not enough balance" refusal) and
   * `explainFailure` (core/debugging/transactionExplanation.ts: `isVmFailureText`, a VM failure or another
   * refusal). A new reader joins that list, with its reason, or reads `kind` and `status`.
   */
  readonly detail: string | undefined;
  readonly resource: string | undefined;
  /** True for 401: retrying with the same key can never succeed. */
  readonly keyMustBeReplaced: boolean;

  constructor(endpoint: string, status: number, detail?: string, resource?: string) {
    const kind = kindOfStatus(status);
    // A redirect is not a malformed request: say what happened and why it is not followed.
    const hint =
      status >= 300 && status < 400
        ? 'The gateway redirected; redirects are not followed so your key stays with the configured host.'
        : HINTS[kind];
    super(`${endpoint}: HTTP ${status}. ${hint}${detail ? ` (${detail})` : ''}`, endpoint);
    this.kind = kind;
    this.status = status;
    this.detail = detail;
    this.resource = resource;
    this.keyMustBeReplaced = kind === 'unauthorized';
  }
}

/** The key's monthly quota is used up: nothing will be answered before `until` (ms since epoch). */
export class QuotaExhaustedError extends GatewayError {
  static override readonly brand: string = 'QuotaExhaustedError';
  readonly kind = 'rateLimited' as const;
  readonly until: number;

  constructor(endpoint: string, until: number, detail?: string) {
    super(
      `${endpoint}: monthly quota used up until ${new Date(until).toISOString().slice(0, 10)}${detail ? ` (${detail})` : ''}`,
      endpoint,
    );
    this.until = until;
  }
}

/** The response body was larger than the cap for its endpoint; it was not read further. */
export class ResponseTooLargeError extends GatewayError {
  static override readonly brand: string = 'ResponseTooLargeError';
  readonly kind = 'schema' as const;
  readonly limitBytes: number;

  constructor(endpoint: string | undefined, limitBytes: number) {
    super(
      `${endpoint ? `${endpoint}: ` : ''}the response is larger than ${Math.round(limitBytes / 1024)} KB; it was not read further`,
      endpoint,
    );
    this.limitBytes = limitBytes;
  }
}

/** The response body did not match the expected shape; nothing of it is passed on. */
export class SchemaError extends GatewayError {
  static override readonly brand: string = 'SchemaError';
  readonly kind = 'schema' as const;
  /** Dotted path of the first mismatch, e.g. `nodes.0.isSynced`; empty for the root. */
  readonly path: string;
  readonly issue: string;

  constructor(endpoint: string, path: string, issue: string) {
    super(`${endpoint}: unexpected response at ${path || '(root)'}: ${issue}`, endpoint);
    this.path = path;
    this.issue = issue;
  }
}

/** An input failed validation before any request was made. */
export class ValidationError extends GatewayError {
  static override readonly brand: string = 'ValidationError';
  readonly kind = 'validation' as const;
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`, undefined);
    this.field = field;
  }
}

/** The connection failed or dropped; there is no HTTP status. */
export class NetworkError extends GatewayError {
  static override readonly brand: string = 'NetworkError';
  readonly kind = 'network' as const;

  constructor(endpoint: string, cause: unknown) {
    super(`${endpoint}: network failure (${describe(cause)})`, endpoint, { cause });
  }
}

/** The client-side per-request timeout elapsed (kind `timeout`, like a gateway 504). */
export class RequestTimeoutError extends GatewayError {
  static override readonly brand: string = 'RequestTimeoutError';
  readonly kind = 'timeout' as const;
  readonly timeoutMs: number;

  constructor(endpoint: string, timeoutMs: number) {
    super(`${endpoint}: no answer within ${timeoutMs} ms`, endpoint);
    this.timeoutMs = timeoutMs;
  }
}

/** The caller aborted. Named `AbortError` so generic cancellation checks recognise it. */
export class CancelledError extends GatewayError {
  static override readonly brand: string = 'CancelledError';
  readonly kind = 'cancelled' as const;

  constructor(endpoint?: string) {
    super(`${endpoint ? `${endpoint}: ` : ''}cancelled`, endpoint);
    this.name = 'AbortError';
  }
}

/** No API key is stored for the active profile. */
export class MissingKeyError extends GatewayError {
  static override readonly brand: string = 'MissingKeyError';
  readonly kind = 'missingKey' as const;

  constructor(endpoint: string) {
    super(`${endpoint}: no API key is set for this profile`, endpoint);
  }
}

/** One contract call of a batch (or a single call) was executed by the node and failed. */
export class ContractCallFailedError extends GatewayError {
  static override readonly brand: string = 'ContractCallFailedError';
  readonly kind = 'callFailed' as const;
  readonly reason: string;

  constructor(endpoint: string, reason: string) {
    super(`${endpoint}: contract call failed: ${reason}`, endpoint);
    this.reason = reason;
  }
}

/**
 * A submit may or may not have reached the node, and asking `status` did not settle it. The caller must
 * not resend blindly; it can track `txId` instead.
 */
export class SubmitOutcomeUnknownError extends GatewayError {
  static override readonly brand: string = 'SubmitOutcomeUnknownError';
  readonly kind = 'submitUnknown' as const;
  readonly txId: string;

  constructor(endpoint: string, txId: string, cause: unknown) {
    super(`${endpoint}: outcome of submitting ${txId} is unknown (${describe(cause)})`, endpoint, { cause });
    this.txId = txId;
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
  }
  return String(cause);
}
