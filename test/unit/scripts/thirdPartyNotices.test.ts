import assert from 'node:assert/strict';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const notices = require('../../../scripts/thirdPartyNotices.cjs') as {
  packageDirOf(input: string): string | undefined;
  bundledPackages(
    metafiles: { inputs: Record<string, unknown> }[],
    root?: string,
  ): { name: string; version: string; license?: string; texts: string[] }[];
  noticesText(packages: unknown[]): string;
};

const ROOT = path.join(__dirname, '..', '..', '..');

describe('ThirdPartyNotices.txt: the licenses of what esbuild bundles', () => {
  it('finds the package of each bundled input, scoped or not, and none for the extension’s own files', () => {
    assert.equal(notices.packageDirOf('node_modules/zod/v4/core/core.js'), 'node_modules/zod');
    assert.equal(
      notices.packageDirOf('node_modules/@noble/hashes/esm/blake2.js'),
      'node_modules/@noble/hashes',
    );
    assert.equal(
      notices.packageDirOf('node_modules/@scure/bip32/node_modules/@noble/curves/x.js'),
      'node_modules/@scure/bip32/node_modules/@noble/curves',
    );
    assert.equal(notices.packageDirOf('src/extension.ts'), undefined);
  });

  it('lists each bundled package once with its license text, and says when a package declares none', () => {
    const packages = notices.bundledPackages(
      [
        { inputs: { 'src/extension.ts': {}, 'node_modules/zod/v4/classic/schemas.js': {} } },
        {
          inputs: {
            'node_modules/zod/v4/core/core.js': {},
            'node_modules/@alephium/token-list/dist/esm/index.js': {},
          },
        },
      ],
      ROOT,
    );
    assert.deepEqual(
      packages.map((p) => [p.name, p.license]),
      [
        ['@alephium/token-list', undefined],
        ['zod', 'MIT'],
      ],
    );
    assert.match(packages[1]!.texts.join('\n'), /MIT License/);
    const text = notices.noticesText(packages);
    assert.match(text, /@alephium\/token-list 0\.0\.21\nLicense: none declared/);
    assert.match(text, /declares no license and ships no license file/);
    assert.match(text, /zod \d+\.\d+\.\d+\nLicense: MIT/);
  });
});
