/**
 * Input boxes and quick picks show inert text only, as notifications do (inert.ts). VS Code renders
 * `[label](command:id?args)` in an input box's prompt and in its validation message as a link that runs
 * the command with the link's arguments, and `$(icon)` in titles, prompts and pick items. So every text a
 * prompt or a picker shows (title, prompt, placeholder, validation message, item label, description and
 * detail) is an {@link Inert}: this extension's own words, with outside values (a profile's name, an
 * artifact's type, a file's path, a pasted value quoted by a check) made inert by the `inert` tag.
 *
 * The VS Code helpers (`src/platform/prompts.ts`) take these shapes and nothing else, and read the
 * strings through {@link inputBoxStrings} and {@link pickItemStrings}; ESLint keeps `showInputBox`,
 * `createInputBox`, `showQuickPick` and `createQuickPick` out of every other file.
 */
import { inert, type Inert } from './inert';

/** How a validation message lets Enter through: an error blocks it, info and warning do not. */
export type ProblemSeverity = 'error' | 'warning' | 'info';

/** A validation message: inert text, an error unless it says otherwise. */
export type InputProblem = Inert | { readonly message: Inert; readonly severity: ProblemSeverity };

/** The texts of an input box. `value` is what the box holds to start with: editable text, not rendered. */
export interface InertInputBox {
  readonly title?: Inert;
  readonly prompt?: Inert;
  readonly placeHolder?: Inert;
  readonly value?: string;
  readonly password?: boolean;
  /** Checked as the user types; undefined lets the value through. */
  readonly validate?: (value: string) => InputProblem | undefined;
}

/** A quick pick item's texts; a caller adds its own fields (the value chosen) beside them. */
export interface InertPickItem {
  readonly label: Inert;
  readonly description?: Inert;
  readonly detail?: Inert;
}

/** A quick pick's own texts and its matching options. */
export interface InertPickOptions {
  readonly title?: Inert;
  readonly placeHolder?: Inert;
  readonly matchOnDescription?: boolean;
  readonly matchOnDetail?: boolean;
  /** Whether the pick stays open when focus moves away (default: it stays). */
  readonly ignoreFocusOut?: boolean;
}

/**
 * A check of this extension's core (`checkRecipient`, `argumentProblem`…) as an input box's validator.
 * Its words may quote what was typed or pasted, or an artifact's type, so the whole message is treated as
 * outside text: no link or icon forms, however it was written.
 */
export function inertCheck(
  check: (value: string) => string | undefined,
): (value: string) => Inert | undefined {
  return (value) => inertProblem(check(value));
}

/** One problem text of a check (see {@link inertCheck}) as inert text; undefined stays undefined. */
export function inertProblem(problem: string | undefined): Inert | undefined {
  return problem === undefined ? undefined : inert`${problem}`;
}

/** The strings an input box shows, read from its inert texts (undefined ones left out). */
export function inputBoxStrings(box: Pick<InertInputBox, 'title' | 'prompt' | 'placeHolder'>): {
  title?: string;
  prompt?: string;
  placeHolder?: string;
} {
  return {
    ...(box.title ? { title: box.title.text } : {}),
    ...(box.prompt ? { prompt: box.prompt.text } : {}),
    ...(box.placeHolder ? { placeHolder: box.placeHolder.text } : {}),
  };
}

/** A validation message's text and severity. */
export function problemStrings(problem: InputProblem): { message: string; severity: ProblemSeverity } {
  return 'severity' in problem
    ? { message: problem.message.text, severity: problem.severity }
    : { message: problem.text, severity: 'error' };
}

/** The strings a quick pick item shows, read from its inert texts. */
export function pickItemStrings(item: InertPickItem): {
  label: string;
  description?: string;
  detail?: string;
} {
  return {
    label: item.label.text,
    ...(item.description ? { description: item.description.text } : {}),
    ...(item.detail ? { detail: item.detail.text } : {}),
  };
}
