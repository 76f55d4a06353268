import { strict as assert } from 'node:assert';
import { Redactor, REDACTED } from '../../../src/core/util/redact';

describe('Redactor', () => {
  it('masks a registered secret wherever it appears', () => {
    const r = new Redactor();
    r.addSecret('sk_live_abcdef123456');
    assert.equal(
      r.redact('key=sk_live_abcdef123456 and again sk_live_abcdef123456'),
      `key=${REDACTED} and again ${REDACTED}`,
    );
  });

  it('masks bearer tokens and X-API-KEY headers that nobody registered', () => {
    const r = new Redactor();
    const out = r.redact('Authorization: Bearer abcdefghijkl; x-api-key: zzzzzzzzz');
    assert.ok(!out.includes('abcdefghijkl'), out);
    assert.ok(!out.includes('zzzzzzzzz'), out);
  });

  it('masks runs of three words of a registered mnemonic', () => {
    const r = new Redactor();
    const words =
      'abandon ability able about above absent absorb abstract absurd abuse access accident'.split(' ');
    r.addSecret(words.join(' '));
    const out = r.redact(`leaked: ${words.slice(4, 8).join(' ')}`);
    assert.ok(!out.includes(words.slice(4, 7).join(' ')), out);
  });

  it('leaves ordinary text alone', () => {
    const r = new Redactor();
    r.addSecret('topsecretvalue');
    assert.equal(r.redact('GET /infos/version 200'), 'GET /infos/version 200');
  });
});
