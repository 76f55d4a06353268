// Writes ThirdPartyNotices.txt: the name, version, license and license text of every npm package esbuild
// put into dist/ (read from the builds' metafiles, so a package is listed exactly when a bundle holds a
// file of it). esbuild.js runs it after each build; `npm run package` ships the file in the .vsix.
const fs = require('node:fs');
const path = require('node:path');

const LICENSE_FILES = /^(licen[cs]e|copying|notice)(\.(md|txt))?$/i;

/** The package directory of a bundled input path (`node_modules/@scope/name/...` or `node_modules/name/...`). */
function packageDirOf(input) {
  const parts = input.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const length = parts[at + 1].startsWith('@') ? 2 : 1;
  return parts.slice(0, at + 1 + length).join('/');
}

/** The packages the metafiles' inputs come from, each once, by name. */
function bundledPackages(metafiles, root = process.cwd()) {
  const dirs = new Set();
  for (const meta of metafiles)
    for (const input of Object.keys(meta.inputs)) {
      const dir = packageDirOf(input);
      if (dir) dirs.add(dir);
    }
  const packages = new Map();
  for (const dir of dirs) {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
    const files = fs
      .readdirSync(path.join(root, dir))
      .filter((f) => LICENSE_FILES.test(f))
      .sort();
    const repository =
      typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
    packages.set(manifest.name, {
      name: manifest.name,
      version: manifest.version,
      license: typeof manifest.license === 'string' ? manifest.license : undefined,
      repository,
      texts: files.map((f) => fs.readFileSync(path.join(root, dir, f), 'utf8').trim()),
    });
  }
  return [...packages.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The notices text: a header, then one section per package with its license text (or why there is none). */
function noticesText(packages) {
  const rule = '-'.repeat(78);
  const sections = packages.map((p) =>
    [
      rule,
      `${p.name} ${p.version}`,
      `License: ${p.license ?? 'none declared'}${p.repository ? `\nRepository: ${p.repository}` : ''}`,
      '',
      p.texts.length > 0
        ? p.texts.join('\n\n')
        : 'The package declares no license and ships no license file; it is listed here so that what the extension bundles is on record.',
    ].join('\n'),
  );
  return [
    'Alephium Gateway for VS Code: third-party notices',
    '',
    'The extension bundles the following npm packages (esbuild, from the metafiles of its builds).',
    '',
    ...sections,
    '',
  ].join('\n');
}

function writeThirdPartyNotices(metafiles, file = 'ThirdPartyNotices.txt') {
  fs.writeFileSync(file, noticesText(bundledPackages(metafiles)));
}

module.exports = { packageDirOf, bundledPackages, noticesText, writeThirdPartyNotices };
