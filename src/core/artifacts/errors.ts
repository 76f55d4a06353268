/**
 * Errors of the artifacts layer. They carry the file and the field separately (not only in the text), so
 * the VS Code glue can point at the file, and the message is complete on its own because it is shown to
 * the user as is.
 */
/** A place in a file's text: the character offset, and the 0-based line and column it is at. */
export interface TextPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /** How many characters the problem spans (a key with its quotes), when known. */
  readonly length?: number;
}

export class ArtifactError extends Error {
  constructor(
    message: string,
    /** The artifact or deployments file, when known (a path or a bare name). */
    readonly file: string | undefined,
    /** Dotted path of the offending field inside the file, e.g. `fieldsSig.isMutable`. */
    readonly field: string | undefined,
    /** Where in the file's text the problem is (0-based), when the text was at hand: for the Problems view. */
    readonly position?: TextPosition,
  ) {
    super(message);
    this.name = 'ArtifactError';
  }
}

/** A call argument the user typed does not fit its parameter type; `param` names the parameter. */
export class ArgumentError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
    this.name = 'ArgumentError';
  }
}
