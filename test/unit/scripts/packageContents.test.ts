import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PackageManager, listFiles } from '@vscode/vsce';

const ROOT = path.join(__dirname, '..', '..', '..');

/** What the installed extension needs; anything else in the .vsix is a leak or dead weight. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^LICENSE$/,
  /^ThirdPartyNotices\.txt$/,
];
const ALLOWED_DIRS = ['dist/', 'media/', 'schemas/'];

/** The bundles esbuild.js writes into dist/ (the `out:` of each entry), whether or not dist/ is built. */
function bundleNames(): string[] {
  const source = readFileSync(path.join(ROOT, 'esbuild.js'), 'utf8');
  return [...source.matchAll(/\bout:\s*'([\w./-]+\.js)'/g)].map((m) => m[1]!);
}

describe('.vscodeignore: what npm run package puts into the .vsix', () => {
  // As npm run package lists them: --no-dependencies, since esbuild bundles every dependency.
  let files: string[];
  before(async function () {
    this.timeout(60_000);
    files = (await listFiles({ cwd: ROOT, packageManager: PackageManager.None })).map((f) =>
      f.split(path.sep).join('/'),
    );
  });

  it('packages no sources, tests, sandbox, scripts, docs, maps or node_modules', () => {
    assert.ok(files.includes('package.json'));
    for (const file of files) {
      const allowed = ALLOWED.some((re) => re.test(file)) || ALLOWED_DIRS.some((dir) => file.startsWith(dir));
      assert.ok(allowed, `${file} would be packaged`);
      assert.ok(!file.endsWith('.map') && !file.endsWith('.ts'), `${file} would be packaged`);
    }
  });

  it('packages every lazily loaded bundle esbuild writes, so no command fails to load in the installed .vsix', () => {
    const names = bundleNames();
    assert.ok(names.length >= 4, `found ${names.join(', ')} in esbuild.js`);
    const built = existsSync(path.join(ROOT, 'dist'))
      ? readdirSync(path.join(ROOT, 'dist')).filter((f) => f.endsWith('.js'))
      : [];
    for (const name of new Set([...names, ...built])) {
      if (!existsSync(path.join(ROOT, 'dist', name))) continue; // not built here: nothing to list
      assert.ok(files.includes(`dist/${name}`), `dist/${name} is built but not packaged`);
    }
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
