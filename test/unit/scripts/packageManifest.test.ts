import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');

interface SettingSchema {
  type?: string;
  enum?: unknown[];
  enumDescriptions?: string[];
  description?: string;
  markdownDescription?: string;
  order?: number;
  items?: { properties?: Record<string, SettingSchema> };
}

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  icon: string;
  repository?: { url: string };
  categories: string[];
  keywords: string[];
  scripts: Record<string, string>;
  contributes: Record<string, unknown> & { configuration: { properties: Record<string, SettingSchema> } };
};
const settings = manifest.contributes.configuration.properties;

/** Every schema that offers a choice, with where it is: the settings and the profile's fields. */
function enums(): [string, SettingSchema][] {
  const all: [string, SettingSchema][] = [];
  for (const [key, schema] of Object.entries(settings)) {
    if (schema.enum) all.push([key, schema]);
    for (const [field, sub] of Object.entries(schema.items?.properties ?? {})) {
      if (sub.enum) all.push([`${key}[].${field}`, sub]);
    }
  }
  return all;
}

describe('package.json: what the marketplaces and the Settings editor show', () => {
  it('packages with vsce package and none of its checks switched off', () => {
    // npm run package is scripts/package.mjs, which runs vsce: read the arguments it gives vsce.
    assert.equal(manifest.scripts.package, 'node scripts/package.mjs');
    const pkg = readFileSync(path.join(ROOT, 'scripts', 'package.mjs'), 'utf8');
    assert.match(pkg, /\['package', \.\.\.common/);
    for (const flag of [
      '--allow-missing-repository',
      '--no-rewrite-relative-links',
      '--skip-license',
      '--allow-',
    ]) {
      assert.ok(!pkg.includes(flag), `npm run package uses ${flag}`);
    }
    assert.ok(manifest.repository?.url.startsWith('https://github.com/'));
  });

  it('has a square PNG icon of 128 or 256 pixels', () => {
    const png = readFileSync(path.join(ROOT, manifest.icon));
    assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    assert.equal(width, height);
    assert.ok(width === 128 || width === 256, `icon is ${width}×${height}`);
  });

  it('claims no category it does not contribute (a debugger, a language)', () => {
    if (manifest.categories.includes('Debuggers')) assert.ok(manifest.contributes.debuggers);
    if (manifest.categories.includes('Programming Languages')) assert.ok(manifest.contributes.languages);
    assert.ok(manifest.keywords.length <= 30);
  });

  it('describes every choice of every enum setting and profile field', () => {
    assert.ok(enums().length >= 4);
    for (const [where, schema] of enums()) {
      assert.equal(schema.enumDescriptions?.length, schema.enum?.length, `${where}: enumDescriptions`);
    }
  });

  it('describes every field of a profile and orders every setting', () => {
    const fields = Object.entries(settings['alephium.profiles']?.items?.properties ?? {});
    assert.ok(fields.length >= 8);
    for (const [field, schema] of fields) {
      assert.ok(
        schema.description ?? schema.markdownDescription,
        `profile field ${field} has no description`,
      );
    }
    const orders = Object.entries(settings).map(([key, s]) => {
      assert.equal(typeof s.order, 'number', `${key} has no order`);
      return s.order;
    });
    assert.equal(new Set(orders).size, orders.length, 'two settings share an order');
  });

  it("releases package.json's version as the changelog's newest section, under an [Unreleased] one", () => {
    const changelog = readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
    const sections = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]);
    assert.equal(sections[0], 'Unreleased');
    assert.equal(sections[1], manifest.version);
    assert.match(
      changelog,
      new RegExp(`^## \\[${manifest.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    );
    assert.match(changelog, new RegExp(`^\\[${manifest.version.replace(/\./g, '\\.')}\\]: https://`, 'm'));
  });
});
