/** Thrown when the user dismisses a prompt; commands end quietly on it. */
export class UserCancelledError extends Error {
  constructor() {
    super('Cancelled by the user.');
    this.name = 'UserCancelledError';
  }
}

export function isUserCancelled(error: unknown): boolean {
  // An aborted fetch or signal throws a DOMException named AbortError, which has no class of its own here.
  return error instanceof UserCancelledError || (error instanceof Error && error.name === 'AbortError');
}

/** The message of anything thrown, without assuming it is an Error. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** A command the failure's toast offers, run as the user's own choice when they press its button. */
export interface FollowUp {
  readonly title: string;
  readonly command: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** A failure whose toast offers a next step (a failed simulation: "Debug this failure"). */
export class FailureWithFollowUp extends Error {
  constructor(
    message: string,
    readonly followUp: FollowUp,
  ) {
    super(message);
    this.name = 'FailureWithFollowUp';
  }
}
