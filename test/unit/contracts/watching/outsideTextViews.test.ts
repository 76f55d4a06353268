/**
 * Outside text in the views and result documents built in the core: names and values from a workspace
 * or the chain reach tree rows through plainText and result documents through markdownText/codeSpan,
 * so no link, image, HTML or icon can form, and each text is capped.
 */
import { strict as assert } from 'node:assert';
import { marked } from 'marked';
import type { ContractArtifact, DecodedEvent } from '../../../../src/core/artifacts';
import { addressFromContractId } from '../../../../src/core/protocol';
import { callMarkdown, type CallSummary } from '../../../../src/core/contracts/call';
import { addressInfoMarkdown, checkAddress } from '../../../../src/core/node/nodeQueries';
import { makeWatched } from '../../../../src/core/contracts/watching/watchList';
import {
  ROW_DESCRIPTION_CHARS,
  ROW_LABEL_CHARS,
  ROW_TOOLTIP_CHARS,
  contractRow,
  eventRow,
  stateRows,
} from '../../../../src/core/contracts/watching/rows';
import { eventsMarkdown } from '../../../../src/core/contracts/watching/eventsMarkdown';

const ADDRESS = addressFromContractId('33'.repeat(32));
const LINK = '[Retry now](command:alephium.sendTransfer?%7B%22confirm%22%3Afalse%7D)';
const IMAGE = '![pixel](https://evil.example/p.png)';
const HTML = '<img src=x onerror=alert(1)><script>x</script>';
const BREAKOUT = '`\n\n[phish](https://evil.example) $(zap)';
const HOSTILE = [LINK, IMAGE, HTML, BREAKOUT];

/** Tags a Markdown renderer (marked, as VS Code's preview) would make of it, apart from our own. */
function renderedTags(md: string): string[] {
  const html = marked.parse(md, { async: false });
  return [...html.matchAll(/<(a|img|script|iframe|svg|style)\b/gi)].map((m) => (m[1] ?? '').toLowerCase());
}

function assertPlain(text: string | undefined, max: number, what: string): void {
  if (text === undefined) return;
  assert.ok(!text.includes(']('), `${what}: a link survived: ${text}`);
  assert.ok(!text.includes('$('), `${what}: an icon survived: ${text}`);
  assert.ok(!/[\u0000-\u0009\u000b-\u001f\u202e]/.test(text), `${what}: a control character survived`);
  assert.ok(text.length <= max + 32, `${what}: ${text.length} characters`);
}

describe('outside text in tree rows and result documents', () => {
  it('tree rows show names and values as capped plain text (no link or icon), and copy the value whole', () => {
    const long = 'x'.repeat(50_000);
    for (const hostile of [...HOSTILE, long]) {
      const row = contractRow({
        watched: makeWatched(ADDRESS, { name: `${hostile}\u202e` }),
        resolved: undefined,
        codeHash: undefined,
        error: hostile,
      });
      assertPlain(row.label, ROW_LABEL_CHARS, 'contract label');
      assertPlain(row.description, ROW_DESCRIPTION_CHARS, 'contract description');
      assertPlain(row.tooltip, ROW_TOOLTIP_CHARS, 'contract tooltip');
      const event = eventRow(
        {
          txId: 'ab'.repeat(32),
          eventIndex: 9,
          fields: [
            { type: 'ByteVec', value: hostile },
            { type: hostile, value: hostile },
          ],
        },
        undefined,
      );
      for (const r of [event, ...event.fields]) {
        assertPlain(r.label, ROW_LABEL_CHARS, 'event label');
        assertPlain(r.description, ROW_DESCRIPTION_CHARS, 'event description');
        assertPlain(r.tooltip, ROW_TOOLTIP_CHARS, 'event tooltip');
      }
      assert.equal(event.fields[1]!.copy, hostile, 'Copy Value copies the value as it is');
      // Not hex, so never copied as a ByteVec: its raw start, marked.
      assert.match(event.fields[0]!.copy ?? '', /⚠ not a valid ByteVec$/);
      const { rows } = stateRows(undefined, {
        immFields: [{ type: 'ByteVec', value: hostile }],
        mutFields: [],
        asset: { attoAlphAmount: '1', tokens: [] },
        codeHash: '00'.repeat(32),
      });
      for (const r of rows) assertPlain(r.description, ROW_DESCRIPTION_CHARS, 'state description');
    }
    // Ordinary names and values are shown as they are.
    const plain = contractRow({
      watched: makeWatched(ADDRESS, { name: 'Counter:2' }),
      resolved: undefined,
      codeHash: undefined,
    });
    assert.equal(plain.label, 'Counter:2');
  });

  it('event listings escape names and values: no link, image or HTML renders, every value stays readable', () => {
    const decoded = (name: string): DecodedEvent => ({
      name,
      index: 0,
      kind: 'declared',
      fields: [{ name, type: name, value: `${name}-value` }],
      warning: name,
    });
    for (const hostile of HOSTILE) {
      const md = eventsMarkdown(`Events of ${hostile}`, [
        { eventIndex: 0, fields: [], decoded: decoded(hostile), contractAddress: hostile, txId: hostile },
      ]);
      assert.deepEqual(renderedTags(md), [], md);
    }
    const md = eventsMarkdown('Events', [
      { eventIndex: 0, fields: [], decoded: decoded('Transfer'), contractAddress: ADDRESS },
    ]);
    assert.match(md, /## 1\. Transfer \(eventIndex 0\)/);
    assert.match(md, new RegExp(`- contract: \`${ADDRESS}\``));
    assert.match(md, /- \*\*Transfer\*\* \(Transfer\): `Transfer-value`/);
  });

  it('a simulated call and Address Info escape what the artifact, the gateway and the user wrote', () => {
    for (const hostile of HOSTILE) {
      const summary: CallSummary = {
        contract: hostile,
        method: hostile,
        methodIndex: 0,
        returns: [{ name: 'result', type: hostile, value: hostile }],
        returnsWarning: hostile,
        gasUsed: 1,
        events: [
          {
            name: hostile,
            index: 0,
            kind: 'declared',
            fields: [{ name: hostile, type: 'U256', value: hostile }],
            warning: hostile,
            contractAddress: hostile,
          },
        ],
        debugMessages: [{ contractAddress: hostile, message: hostile }],
      };
      const call = callMarkdown(summary, ADDRESS, [{ type: 'ByteVec', value: hostile }]);
      assert.deepEqual(renderedTags(call), [], call);
      const info = addressInfoMarkdown(checkAddress(hostile));
      assert.deepEqual(renderedTags(info), [], info);
    }
    const artifact = { name: 'Counter' } as ContractArtifact;
    const ok = callMarkdown(
      {
        contract: artifact.name,
        method: 'get',
        methodIndex: 1,
        returns: [{ name: 'result', type: 'U256', value: '7' }],
        gasUsed: 5,
        events: [],
        debugMessages: [{ contractAddress: ADDRESS, message: 'count is now 7' }],
      },
      ADDRESS,
      [],
    );
    assert.match(ok, /# Simulated call: Counter\.get \(methodIndex 1\)/);
    assert.match(ok, /- \*\*result\*\* \(U256\): `7`/);
    assert.match(ok, new RegExp(`- \`${ADDRESS}\`: \`count is now 7\``));
  });
});
