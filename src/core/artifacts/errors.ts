/**
 * Errors of the artifacts layer. They carry the file and the field separately (not only in the text), so
 * the VS Code glue can point at the file, and the message is complete on its own because it is shown to
 * the user as is.
 */
export class ArtifactError extends Error {
  constructor(
    message: string,
    /** The artifact or deployments file, when known (a path or a bare name). */
    readonly file: string | undefined,
    /** Dotted path of the offending field inside the file, e.g. `fieldsSig.isMutable`. */
    readonly field: string | undefined,
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
