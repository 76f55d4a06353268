import { strict as assert } from 'node:assert';
import { marked } from 'marked';
import {
  MAX_NOTICE_CHARS,
  cleanText,
  codeSpan,
  commandLink,
  inert,
  inertLines,
  safeMarkdown,
  markdownCode,
  markdownText,
  plainText,
} from '../../../src/core/text/inert';

/**
 * VS Code's `parseLinkedText` (src/vs/base/common/linkedText.ts), which notifications use to turn
 * `[label](href)` into a clickable link: written out here as the oracle for "no link survives".
 */
const VSCODE_LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

function linksIn(text: string): string[] {
  return [...text.matchAll(VSCODE_LINKED_TEXT)].map((m) => m[2] ?? '');
}

/** What a Markdown renderer (marked, the one VS Code uses) makes of it: the tags it would render. */
function renderedTags(md: string): string[] {
  const html = marked.parse(md, { async: false });
  return [...html.matchAll(/<(a|img|script|iframe|strong|em|h\d|code)\b/gi)].map((m) =>
    (m[1] ?? '').toLowerCase(),
  );
}

const ATTACK =
  'Session expired. [Retry now](command:alephium.sendTransfer?%7B%22to%22%3A%221DrDy%22%2C%22amount%22%3A%227%22%2C%22confirm%22%3Afalse%7D)';

describe('inert text (the one owner of how outside text is shown)', () => {
  it('leaves no link VS Code would render in a notification, for every link form', () => {
    const forms = [
      ATTACK,
      '[Open docs](https://evil.example/x)',
      '[x](file:///etc/passwd)',
      "[label](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%7Csh%22%7D 'title')",
      '[a](command:x) and [b](https://y)',
    ];
    for (const form of forms) {
      assert.ok(linksIn(form).length > 0, `the oracle sees a link in ${form}`);
      assert.deepEqual(linksIn(plainText(form)), [], form);
      assert.deepEqual(linksIn(inert`Failed: ${form}`.text), [], form);
    }
    // The text still reads as it was written: a person can see what the gateway said.
    assert.match(plainText(ATTACK), /Session expired\. \[Retry now\] \(command:alephium\.sendTransfer/);
  });

  it('keeps this extension’s own words as they are and defuses only interpolated values', () => {
    const shown = inert`Deployed ${'Counter'} at ${'[x](command:y)'}.`;
    assert.equal(shown.text, 'Deployed Counter at [x] (command:y).');
    // An inert value inside another keeps its text (no double processing).
    assert.equal(inert`A: ${inert`b ${'c'}`}`.text, 'A: b c');
  });

  it('breaks the $(icon) syntax of CodeLens titles, quick picks and the status bar', () => {
    assert.equal(plainText('$(error) fake alarm'), '$ (error) fake alarm');
  });

  it('removes escape sequences, controls, bidi overrides and zero-width characters, and collapses lines', () => {
    const text = 'a\u001b[31mred\u001b[0m\u0000b\r\nforged log line\u202eevil\u200b\tend';
    assert.equal(cleanText(text), 'aredb forged log lineevil end');
    assert.equal(cleanText('one\n\n two ', 100, true), 'one\n\ntwo');
  });

  it('caps every value and every notice, saying how long it was', () => {
    const long = 'x'.repeat(10_000);
    assert.equal(plainText(long, 20), `${'x'.repeat(20)}… (10000 characters)`);
    assert.ok(inert`${long}${long}${long}${long}`.text.length <= MAX_NOTICE_CHARS + 40);
    const lines = inertLines(
      Array.from({ length: 200 }, (_, i) => `line ${i}`),
      10,
    );
    assert.equal(lines.text.split('\n').length, 11);
    assert.match(lines.text, /190 more line/);
  });

  it('escapes outside text for Markdown so that no link, image, HTML or emphasis renders', () => {
    const hostile = [
      '[Your API key expired: re-enter it here](https://evil.example/phish)',
      '![t](https://evil.example/pixel.png)',
      '<img src=x onerror=alert(1)> <script>alert(1)</script>',
      'https://evil.example/autolink www.evil.example',
      '**bold** _em_ # heading',
      '`code` and ``more``',
      '[x][ref]\n\n[ref]: https://evil.example',
    ];
    for (const h of hostile) {
      assert.deepEqual(renderedTags(markdownText(h)), [], h);
      assert.deepEqual(renderedTags(safeMarkdown`Value: ${h}`.markdown), [], h);
    }
  });

  it('makes code spans that cannot be broken out of (backticks, blank lines)', () => {
    const breakouts = [
      'count = 1`\n\n[Your API key expired](https://evil.example/phish) ![t](https://evil.example/p.png)',
      '``` fence ```',
      '`',
      '',
    ];
    for (const b of breakouts) {
      const html = marked.parse(safeMarkdown`Debug: ${markdownCode(b)}`.markdown, {
        async: false,
      });
      assert.deepEqual(
        renderedTags(safeMarkdown`Debug: ${markdownCode(b)}`.markdown).filter((t) => t !== 'code'),
        [],
        html,
      );
      assert.equal((html.match(/<code>/g) ?? []).length, 1, html);
    }
    assert.equal(codeSpan('a`b'), '``a`b``');
  });

  it('builds this extension’s own command links with arguments that cannot end the link early', () => {
    const link = commandLink(safeMarkdown`Balance`, 'alephium.identifyAddress', [{ address: 'a)b(' }]);
    const html = marked.parse(link.markdown, { async: false });
    assert.match(
      html,
      /<a href="command:alephium\.identifyAddress\?%5B%7B%22address%22%3A%22a%29b%28%22%7D%5D">Balance<\/a>/,
    );
  });

  it('works in one pass on hostile sizes (a megabyte of brackets, backticks or spaces)', () => {
    const inputs = [
      '[]('.repeat(350_000),
      '`'.repeat(1_000_000),
      ' '.repeat(1_000_000) + 'x',
      '\u001b['.repeat(500_000),
    ];
    for (const input of inputs) {
      // Bounded by the cap, not by the input: escaping at most doubles what is kept.
      assert.ok(plainText(input).length <= 1000);
      assert.ok(markdownText(input).length <= 1500);
      assert.ok(codeSpan(input).length <= 2000);
    }
  });
});
