import { strict as assert } from 'node:assert';
import type * as vscode from 'vscode';
import {
  closeAnsweredPrompt,
  isKeptAnswered,
  keepUntilNextPrompt,
  showInPlaceOfAnswered,
} from '../../../src/platform/promptHandOver';

/** A quick input that records what was done to it, in one log shared by all of them. */
function recordingInput(name: string, calls: string[]): vscode.QuickInput {
  return {
    busy: false,
    enabled: true,
    show: () => void calls.push(`show ${name}`),
    dispose: () => void calls.push(`dispose ${name}`),
  } as unknown as vscode.QuickInput;
}

describe('promptHandOver: one command prompts hand the quick input to each other', () => {
  afterEach(() => closeAnsweredPrompt());

  it('the next prompt is shown before the answered one closes, so the widget never hides in between', () => {
    const calls: string[] = [];
    const contract = recordingInput('contract', calls);
    const method = recordingInput('method', calls);
    showInPlaceOfAnswered(contract);
    keepUntilNextPrompt(contract);
    assert.deepEqual(
      [contract.busy, contract.enabled],
      [true, false],
      'the answered prompt shows it is working',
    );
    assert.ok(isKeptAnswered(contract));
    showInPlaceOfAnswered(method);
    // Disposing first would close the widget and give the focus back to what had it (the walkthrough).
    assert.deepEqual(calls, ['show contract', 'show method', 'dispose contract']);
    assert.ok(!isKeptAnswered(contract));
  });

  it("the command's end closes the last answered prompt, once", () => {
    const calls: string[] = [];
    const last = recordingInput('last', calls);
    showInPlaceOfAnswered(last);
    keepUntilNextPrompt(last);
    closeAnsweredPrompt();
    closeAnsweredPrompt();
    assert.deepEqual(calls, ['show last', 'dispose last']);
  });

  it('a prompt answered while another is kept closes the older one', () => {
    const calls: string[] = [];
    const first = recordingInput('first', calls);
    const second = recordingInput('second', calls);
    keepUntilNextPrompt(first);
    keepUntilNextPrompt(second);
    assert.deepEqual(calls, ['dispose first']);
    assert.ok(isKeptAnswered(second));
  });
});
