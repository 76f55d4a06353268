import { strict as assert } from 'node:assert';
import { MAX_RESULT_CHARS, capResult } from '../../../src/core/text/resultDocument';

describe('result documents (their size bound)', () => {
  it('keeps a document that fits as it is', () => {
    assert.equal(capResult('# Result\n\n- a: 1\n'), '# Result\n\n- a: 1\n');
  });

  it('cuts a huge document at a line break before about 1 MB and says where and how much', () => {
    const line = `- value: \`${'ab'.repeat(40)}\`\n`;
    const huge = line.repeat(Math.ceil((3 * MAX_RESULT_CHARS) / line.length));
    const kept = capResult(huge);
    assert.ok(kept.length < MAX_RESULT_CHARS + 300, `${kept.length} characters`);
    const [body, note] = kept.split('\n\n… ');
    assert.ok(body!.endsWith('`'), 'cut after a whole line');
    assert.match(
      note!,
      /This result was cut here: it is [\d,]+ characters long and only the first [\d,]+ are kept/,
    );
    // One line longer than the bound is cut at the bound.
    const oneLine = capResult('x'.repeat(MAX_RESULT_CHARS * 2));
    assert.ok(oneLine.startsWith('x'.repeat(MAX_RESULT_CHARS)));
    assert.ok(oneLine.length < MAX_RESULT_CHARS + 300);
  });
});
