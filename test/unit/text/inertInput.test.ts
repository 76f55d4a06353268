import { strict as assert } from 'node:assert';
import { inert } from '../../../src/core/text/inert';
import {
  inertCheck,
  inertProblem,
  inputBoxStrings,
  pickItemStrings,
  problemStrings,
} from '../../../src/core/text/inertInput';
import { apiKeyPromptWords } from '../../../src/core/gateway/keyBinding';

/**
 * VS Code's `parseLinkedText` (src/vs/base/common/linkedText.ts), which the quick input uses for an
 * input box's prompt and validation message (`renderQuickInputDescription`): the oracle for "no link".
 */
const VSCODE_LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
/** A codicon as VS Code's label renderer reads it (`$(name)`, `$(name~spin)`). */
const CODICON = /\$\([a-z0-9-]+(?:~[a-z]+)?\)/gi;

const LINK = '[Open the type docs](command:workbench.extensions.installExtension?%5B%22evil.ext%22%5D)';
const PROFILE = `Team ${LINK} $(warning)`;

function links(text: string | undefined): string[] {
  return [...(text ?? '').matchAll(VSCODE_LINKED_TEXT)].map((m) => m[2] ?? '');
}

describe('inert text in input boxes and quick picks', () => {
  it('the oracle sees the link an unguarded prompt would show', () => {
    assert.deepEqual(links(`From 1abc on devnet ("${PROFILE}")`).length, 1);
  });

  it('a prompt, title and placeholder built with inert`…` carry no link and no outside icon', () => {
    const shown = inputBoxStrings({
      title: inert`API key for "${PROFILE}"`,
      prompt: inert`From 1abc on devnet ("${PROFILE}")`,
      placeHolder: inert`${LINK}`,
    });
    for (const text of [shown.title, shown.prompt, shown.placeHolder]) {
      assert.deepEqual(links(text), [], text);
      assert.deepEqual([...(text ?? '').matchAll(CODICON)], [], text);
      // What the user reads is still the name as it was written, only the `](` parted.
      assert.match(text ?? '', /\[Open the type docs\] \(command:workbench/);
    }
  });

  it('leaves out the texts a box does not have', () => {
    assert.deepEqual(inputBoxStrings({ prompt: inert`Base URL` }), { prompt: 'Base URL' });
  });

  it("a check's message that quotes a pasted value or an artifact's type forms no link", () => {
    const check = inertCheck((v) => `amount: ${JSON.stringify(v)} is not a number`);
    const problem = check(LINK);
    assert.ok(problem);
    assert.deepEqual(links(problemStrings(problem).message), []);
    assert.equal(problemStrings(problem).severity, 'error', 'a plain problem blocks Enter');
    assert.equal(inertCheck(() => undefined)('anything'), undefined, 'no problem lets the value through');
    assert.equal(inertProblem(undefined), undefined);
  });

  it('an info or warning message keeps its severity (it lets Enter through)', () => {
    const shown = problemStrings({ message: inert`Reading costs ${LINK}`, severity: 'info' });
    assert.equal(shown.severity, 'info');
    assert.deepEqual(links(shown.message), []);
  });

  it("pick items keep this extension's own icons and break the ones outside text brings", () => {
    const item = pickItemStrings({
      label: inert`$(key) Set API Key`,
      description: inert`${'$(alert) Counter.ral.json'}`,
      detail: inert`from ${LINK}`,
    });
    assert.equal(item.label, '$(key) Set API Key');
    assert.deepEqual([...(item.description ?? '').matchAll(CODICON)], []);
    assert.deepEqual(links(item.detail), []);
    assert.deepEqual(pickItemStrings({ label: inert`node` }), { label: 'node' });
  });

  it("Set API Key's prompt is inert text (a workspace profile's name and URL cannot link)", () => {
    const prompt = apiKeyPromptWords(PROFILE, `https://evil.example/${LINK}`, true).text;
    assert.deepEqual(links(prompt), []);
    assert.match(prompt, /comes from this workspace's settings/);
  });
});
