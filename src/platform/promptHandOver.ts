import type * as vscode from 'vscode';

/**
 * Prompts of one command hand the quick input over to each other instead of closing in between.
 *
 * A prompt that closes gives the keyboard focus back to whatever had it before: from the walkthrough, its
 * button. The Enter that answered the prompt is still down then, and its keyup lands on that button,
 * which VS Code's walkthrough page takes as a click on the step (gettingStarted.ts dispatches `keyup`
 * Enter on `x-dispatch` elements to `selectStep`); 250 ms later (its slide time) it focuses the step, in
 * the middle of the next prompt, and what the person types next goes nowhere. Kept on screen (busy)
 * until the next prompt takes its place, the answered prompt never gives the focus back, so nothing lands
 * outside the prompts; the command's end (the command wrapper) closes the last one.
 */
let answered: vscode.QuickInput | undefined;

/** Shows `input` in the place of the prompt answered last, which closes without moving the focus. */
export function showInPlaceOfAnswered(input: vscode.QuickInput): void {
  const previous = answered;
  answered = undefined;
  input.show();
  previous?.dispose();
}

/** Keeps the answered `input` on screen, busy and read-only, until the next prompt or the command's end. */
export function keepUntilNextPrompt(input: vscode.QuickInput): void {
  input.busy = true;
  input.enabled = false;
  if (answered !== input) answered?.dispose();
  answered = input;
}

/** Whether `input` is the answered prompt kept on screen (its hide is then not a cancellation). */
export function isKeptAnswered(input: vscode.QuickInput): boolean {
  return answered === input;
}

/** Closes the answered prompt kept on screen: the command that asked is done. */
export function closeAnsweredPrompt(): void {
  const previous = answered;
  answered = undefined;
  previous?.dispose();
}
