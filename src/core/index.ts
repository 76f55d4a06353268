/**
 * Public surface of the core: everything here runs under plain Node, without VS Code.
 * Other code (and other extensions, through the extension's exported API) import from here.
 */
export { Redactor, REDACTED } from './util/redact';
export { type Logger, silentLogger, redactingLogger } from './log';
