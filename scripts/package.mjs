// Builds the one .vsix that both stores take, and publishes it.
//   node scripts/package.mjs [--out <file.vsix>]   `npm run package`: type checks, a production build in a staging
//                                                  folder, `vsce package`, then the checks below
//   node scripts/package.mjs publish               `npm run publish`: the same package to the Visual Studio
//                                                  Marketplace (VSCE_PAT) and Open VSX (OVSX_PAT); never run by CI
// The Marketplace page is docs/marketplace.md (README.md stays the project's whole front page); its relative
// links and images become absolute URLs pinned to the release tag `v<version>`, so the page of a published
// version never changes under it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
export const MARKETPLACE_PAGE = 'docs/marketplace.md';
/** What the package holds besides the bundles; .vscodeignore is the allow-list vsce applies on top. */
const PACKAGED = [
  'package.json',
  '.vscodeignore',
  'LICENSE',
  'CHANGELOG.md',
  'ThirdPartyNotices.txt',
  MARKETPLACE_PAGE,
  'media',
  'schemas',
];

/** `https://github.com/<owner>/<repo>` from package.json's repository. */
export function repositoryWebUrl() {
  const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository.url;
  const match = /^https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(url);
  if (!match) throw new Error(`package.json's repository is not a GitHub https URL: ${url}`);
  return `https://github.com/${match[1]}/${match[2]}`;
}

/** Where the page's relative images and links point: files of docs/ at the release's tag. */
export function pinnedBaseUrls(version = manifest.version) {
  const web = repositoryWebUrl();
  return { images: `${web}/raw/v${version}/docs/`, content: `${web}/blob/v${version}/docs/` };
}

function run(command, args, options = {}) {
  return execFileSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
}

function bin(name) {
  return path.join(root, 'node_modules', '.bin', name);
}

/** Copies what the package holds into a fresh staging folder and builds the production bundles there. */
function stage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alephium-package-'));
  for (const entry of PACKAGED) {
    const from = path.join(root, entry);
    if (!fs.existsSync(from)) continue;
    fs.cpSync(from, path.join(dir, entry), { recursive: true });
  }
  run(process.execPath, ['esbuild.js', '--production', `--outdir=${path.join(dir, 'dist')}`]);
  return dir;
}

/** vsce's own checks with every warning an error: a warning would otherwise scroll past in CI. */
function failOnWarnings(output, tool) {
  const warnings = output.split('\n').filter((line) => /\bWARNING\b|^\s*!!|warn/i.test(line));
  if (warnings.length > 0) throw new Error(`${tool} warned:\n${warnings.join('\n')}`);
}

/**
 * Packages the extension into `out`; resolves with vsce's report. `typeCheck: false` skips the type checks (the
 * packaging test: lint has type-checked the same tree already).
 */
export function packageExtension({ out = path.join(root, `${manifest.name}.vsix`), typeCheck = true } = {}) {
  if (typeCheck) run('npm', ['run', '--silent', 'check-types']);
  const dir = stage();
  try {
    const urls = pinnedBaseUrls();
    const common = ['--no-dependencies', '--readme-path', MARKETPLACE_PAGE];
    failOnWarnings(run(bin('vsce'), ['ls', ...common], { cwd: dir }), 'vsce ls');
    const output = run(
      bin('vsce'),
      ['package', ...common, '--baseImagesUrl', urls.images, '--baseContentUrl', urls.content, '-o', out],
      { cwd: dir },
    );
    failOnWarnings(output, 'vsce package');
    return { out, output };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function publish() {
  const missing = ['VSCE_PAT', 'OVSX_PAT'].filter((name) => !process.env[name]);
  if (missing.length > 0) {
    throw new Error(
      `publishing needs ${missing.join(' and ')} in the environment (the stores' access tokens)`,
    );
  }
  const { out } = packageExtension();
  // Each tool reads its own token: vsce VSCE_PAT from the environment, ovsx through -p (never logged).
  execFileSync(bin('vsce'), ['publish', '--packagePath', out], { cwd: root, stdio: 'inherit' });
  execFileSync(bin('ovsx'), ['publish', out, '-p', process.env.OVSX_PAT], { cwd: root, stdio: 'inherit' });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  try {
    if (process.argv[2] === 'publish') publish();
    else {
      const at = process.argv.indexOf('--out');
      const { out, output } = packageExtension(at > 0 ? { out: path.resolve(process.argv[at + 1]) } : {});
      process.stdout.write(output);
      console.log(`packaged ${path.relative(process.cwd(), out)}`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    if (error?.stderr) console.error(String(error.stderr));
    process.exit(1);
  }
}
