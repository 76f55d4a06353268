// `npm run package` (scripts/package.mjs): one .vsix that both stores take. Its Marketplace page is the short
// docs/marketplace.md with images pinned to the release's tag, and Open VSX's own client (`ovsx publish`) accepts
// the file with no warning: the upload goes to a stand-in registry on 127.0.0.1 that records what it received.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as yauzl from 'yauzl';
import { MARKETPLACE_PAGE, packageExtension, pinnedBaseUrls } from '../../../scripts/package.mjs';

const root = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  publisher: string;
  version: string;
};

/** Every entry of a zip file, name to content. */
function readZip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (openError, zip) => {
      if (openError) return reject(openError);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A stand-in for the Open VSX publish API: answers the upload as the registry does and keeps the bytes. */
async function startRegistry(): Promise<{ url: string; uploads: Buffer[]; close(): Promise<void> }> {
  const uploads: Buffer[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (request.method === 'POST' && url.pathname === '/api/-/publish') {
        uploads.push(Buffer.concat(chunks));
        response.setHeader('Content-Type', 'application/json');
        response.end(
          JSON.stringify({
            namespace: manifest.publisher,
            name: manifest.name,
            version: manifest.version,
            targetPlatform: 'universal',
          }),
        );
        return;
      }
      response.statusCode = 404;
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    uploads,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('npm run package (scripts/package.mjs)', function () {
  this.timeout(240_000);
  let dir: string;
  let vsix: string;
  let entries: Map<string, Buffer>;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'package-test-'));
    vsix = path.join(dir, 'extension.vsix');
    packageExtension({ out: vsix, typeCheck: false });
    entries = await readZip(vsix);
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('ships the short Marketplace page, not the whole README', () => {
    const page = entries.get('extension/readme.md')?.toString('utf8') ?? '';
    const words = page.split(/\s+/).filter(Boolean).length;
    assert.ok(page.startsWith('# Alephium Gateway'), 'the page is docs/marketplace.md');
    assert.ok(words < 600, `a page read in a minute, not ${words} words`);
    assert.ok(!page.includes('npm test'), "the contributors' commands stay in README.md");
    assert.ok(!entries.has('extension/README.md.orig'));
  });

  it("pins every image to the release's tag, each an existing file of docs/images/", () => {
    const page = entries.get('extension/readme.md')?.toString('utf8') ?? '';
    const images = [...page.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1] ?? '');
    assert.equal(images.length, 3, 'three screenshots');
    const base = pinnedBaseUrls().images;
    assert.ok(base.includes(`/raw/v${manifest.version}/`));
    for (const image of images) {
      assert.ok(image.startsWith(base), `${image} is pinned to v${manifest.version}`);
      const file = path.join(root, 'docs', image.slice(base.length));
      assert.ok(file.startsWith(path.join(root, 'docs', 'images')), `${image} is a file of docs/images/`);
      assert.ok(fs.existsSync(file), `${file} exists`);
    }
    const source = fs.readFileSync(path.join(root, MARKETPLACE_PAGE), 'utf8');
    assert.ok(
      !/\]\(\.\.\//.test(source),
      'no link climbs out of docs/, where a pinned base cannot follow it',
    );
  });

  it('holds the bundles, the licence and the notices, and no source map or source', () => {
    const names = [...entries.keys()];
    assert.ok(names.includes('extension/dist/extension.mjs'));
    assert.ok(names.includes('extension/dist/undici.cjs'));
    assert.ok(names.includes('extension/LICENSE.txt'));
    assert.ok(names.includes('extension/ThirdPartyNotices.txt'), 'the licences of the bundled packages');
    assert.ok(!names.some((n) => n.endsWith('.map')), 'no source map');
    assert.ok(!names.some((n) => n.startsWith('extension/src/') || n.startsWith('extension/test/')));
    assert.ok(!names.some((n) => n.startsWith('extension/node_modules/')));
  });

  it("is accepted by Open VSX's client with no warning", async () => {
    const registry = await startRegistry();
    try {
      const ovsx = path.join(root, 'node_modules', '.bin', 'ovsx');
      const { stdout, stderr } = await promisify(execFile)(
        ovsx,
        ['publish', vsix, '-r', registry.url, '-p', 'test-token-not-a-secret'],
        { cwd: dir, env: { ...process.env, CI: 'true' } },
      );
      assert.match(
        stdout,
        new RegExp(`Published ${manifest.publisher}\\.${manifest.name} v${manifest.version}`),
      );
      assert.ok(!/warn|!!/i.test(stdout + stderr), `no warning: ${stdout}${stderr}`);
      assert.equal(registry.uploads.length, 1);
      assert.deepEqual(registry.uploads[0], fs.readFileSync(vsix), 'the very file `npm run package` wrote');
    } finally {
      await registry.close();
    }
  });
});
