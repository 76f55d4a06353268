/**
 * The user's "no" to a signature, in a module of its own: the glue that turns it into a quiet cancellation is
 * loaded at activation and checks it with `instanceof`, while the signing path that throws it loads on first
 * use. Importing the signing path for the class would bring all of it into the activation chunk.
 */
/** Which of a transaction's confirmations was being asked: mainnet asks twice. */
export type ConfirmStage = 'first' | 'second';

/** The user said no; nothing was signed. */
export class TransferDeclinedError extends Error {
  readonly stage: ConfirmStage;
  constructor(stage: ConfirmStage) {
    super(
      stage === 'first'
        ? 'The transfer was cancelled'
        : 'The transfer was cancelled at the second confirmation',
    );
    this.name = 'TransferDeclinedError';
    this.stage = stage;
  }
}
