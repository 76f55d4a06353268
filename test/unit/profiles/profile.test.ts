import { strict as assert } from 'node:assert';
import {
  baseUrlProblem,
  isLoopbackHost,
  networkNameProblem,
  profileFactLines,
  validateProfile,
} from '../../../src/core/profiles/profile';

describe('profile rules (core/profiles/profile): where a key may go, what a network may be called', () => {
  const gateway = { kind: 'gateway', slug: 'abc', network: 'testnet', plan: 'free' } as const;

  it('accepts plain http only for this machine, for every profile kind', () => {
    for (const url of [
      'http://127.0.0.1:22973',
      'http://localhost:8080/v1',
      'http://[::1]:9000',
      'http://LOCALHOST',
    ])
      for (const kind of ['gateway', 'node'] as const) {
        assert.equal(baseUrlProblem(url), undefined, url);
        assert.doesNotThrow(() =>
          validateProfile(
            kind === 'gateway' ? { ...gateway, baseUrl: url } : { kind, baseUrl: url, network: 'devnet' },
          ),
        );
      }
    for (const url of [
      'http://gateway.example.com',
      'http://10.0.0.5:22973',
      'http://127.0.0.1.evil.example',
      'http://localhost.evil.example',
      'http://[::2]',
    ])
      for (const kind of ['gateway', 'node'] as const) {
        assert.match(baseUrlProblem(url) ?? '', /https/, url);
        assert.throws(
          () =>
            validateProfile(
              kind === 'gateway' ? { ...gateway, baseUrl: url } : { kind, baseUrl: url, network: 'devnet' },
            ),
          { field: 'baseUrl' },
          url,
        );
      }
    assert.equal(baseUrlProblem('https://gateway.example.com'), undefined);
    assert.equal(isLoopbackHost('127.0.0.2'), false);
  });

  it('refuses a base URL with a user name or password (it would be logged and shown)', () => {
    for (const url of ['https://user:pass@gw.example', 'https://user@gw.example', 'http://u:p@127.0.0.1:1']) {
      assert.match(baseUrlProblem(url) ?? '', /user name or password/, url);
      assert.throws(() => validateProfile({ ...gateway, baseUrl: url }), { field: 'baseUrl' });
    }
  });

  it('refuses a network name that is not a plain word (it names the deployments file)', () => {
    for (const network of [
      '..',
      '../../etc',
      'a/b',
      'a\\b',
      '.x',
      'dev.net',
      'dev net',
      '',
      'x'.repeat(33),
      undefined,
      7,
    ])
      assert.ok(networkNameProblem(network), String(network));
    for (const network of ['mainnet', 'testnet', 'devnet', 'Mainnet', 'my-devnet_2'])
      assert.equal(networkNameProblem(network), undefined, network);
    assert.throws(() => validateProfile({ ...gateway, baseUrl: 'https://gw.example', network: '../x' }), {
      field: 'network',
    });
    assert.throws(() => validateProfile({ kind: 'node', baseUrl: 'http://127.0.0.1:1', network: '..' }), {
      field: 'network',
    });
  });

  it('checks a long hostile network name in linear time', () => {
    // One character class, no nested repetition: a megabyte is refused by length at once.
    assert.ok(networkNameProblem('a'.repeat(1_000_000) + '/'));
    assert.ok(networkNameProblem('a-'.repeat(15) + '.'));
  });

  it('shows a profile for review with its name, kind, URL and network, link syntax made inert', () => {
    const text = profileFactLines({
      name: 'Evil [Retry](command:alephium.sendTransfer)',
      kind: 'gateway',
      baseUrl: 'https://gw.example',
      slug: 'abc',
      network: 'testnet',
      plan: 'free',
    }).text;
    assert.match(text, /Name: Evil/);
    assert.match(text, /Kind: gateway/);
    assert.match(text, /URL: https:\/\/gw\.example \(slug abc\)/);
    assert.match(text, /Network: testnet/);
    assert.ok(!text.includes(']('), text);
  });
});
