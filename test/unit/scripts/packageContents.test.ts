import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PackageManager, listFiles } from '@vscode/vsce';

const ROOT = path.join(__dirname, '..', '..', '..');

/** What the installed extension needs; anything else in the .vsix is a leak or dead weight. */
// README.md is what vsce lists without `--readme-path`; npm run package ships docs/marketplace.md in its place.
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^docs\/marketplace\.md$/,
  /^ThirdPartyNotices\.txt$/,
  /^CHANGELOG\.md$/,
  /^LICENSE$/,
];
const ALLOWED_DIRS = ['dist/', 'media/', 'schemas/'];

describe('.vscodeignore: what npm run package puts into the .vsix', () => {
  // As npm run package lists them: --no-dependencies, since esbuild bundles every dependency.
  let files: string[];
  before(async function () {
    this.timeout(60_000);
    files = (await listFiles({ cwd: ROOT, packageManager: PackageManager.None })).map((f) =>
      f.split(path.sep).join('/'),
    );
  });

  it('packages no sources, tests, sandbox, scripts, docs but the Marketplace page, maps or node_modules', () => {
    assert.ok(files.includes('package.json'));
    for (const file of files) {
      const allowed = ALLOWED.some((re) => re.test(file)) || ALLOWED_DIRS.some((dir) => file.startsWith(dir));
      assert.ok(allowed, `${file} would be packaged`);
      assert.ok(!file.endsWith('.map') && !file.endsWith('.ts'), `${file} would be packaged`);
    }
  });

  it('packages every file of dist/ a build writes but its source maps, so no chunk fails to load in the installed .vsix', () => {
    const dist = path.join(ROOT, 'dist');
    const built = existsSync(dist) ? readdirSync(dist).filter((f) => /\.(mjs|cjs|js)$/.test(f)) : [];
    for (const name of built)
      assert.ok(files.includes(`dist/${name}`), `dist/${name} is built but not packaged`);
    // Whatever is built here, the allow-list names the kinds of file the build writes.
    const allowList = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    for (const pattern of ['!dist/*.mjs', '!dist/undici.cjs', '!dist/webview/*.js'])
      assert.ok(allowList.includes(pattern), `.vscodeignore keeps ${pattern}`);
  });

  it('packages the third-party notices that every build writes', () => {
    // esbuild.js writes it on every build; a clone that never built has none to list.
    if (!existsSync(path.join(ROOT, 'ThirdPartyNotices.txt'))) return;
    assert.ok(files.includes('ThirdPartyNotices.txt'), 'ThirdPartyNotices.txt is not packaged');
  });

  it('packages the icon, every jsonValidation schema and every walkthrough image', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      icon: string;
      contributes: {
        jsonValidation: { url: string }[];
        walkthroughs: { steps: { media: { svg: string } }[] }[];
      };
    };
    assert.ok(files.includes(manifest.icon));
    for (const v of manifest.contributes.jsonValidation)
      assert.ok(files.includes(path.posix.normalize(v.url)));
    const images = manifest.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.svg));
    assert.ok(images.length >= 5, 'the walkthrough has its images');
    for (const image of images) assert.ok(files.includes(image), `${image} is not packaged`);
  });
});
