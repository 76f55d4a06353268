/** The logger the core writes to. The VS Code side backs it with a LogOutputChannel; tests with an array. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Wraps a logger so that every message passes through a redaction function first. */
export function redactingLogger(inner: Logger, redact: (text: string) => string): Logger {
  return {
    trace: (m) => inner.trace(redact(m)),
    debug: (m) => inner.debug(redact(m)),
    info: (m) => inner.info(redact(m)),
    warn: (m) => inner.warn(redact(m)),
    error: (m) => inner.error(redact(m)),
  };
}
