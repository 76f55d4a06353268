import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommandIds, ContextKeys, TreeItemContexts, ViewIds } from '../../../src/constants';

interface MenuItem {
  readonly command: string;
  readonly when?: string;
}

const manifest = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8'),
) as {
  contributes: { commands: { command: string }[]; menus: Record<string, MenuItem[]> };
};

/** Every `when` clause of the manifest's menus. */
const whenClauses = Object.values(manifest.contributes.menus)
  .flat()
  .flatMap((item) => (item.when ? [item.when] : []));

/** The words of a clause that are context keys: not an operator, a literal, `view` or `viewItem`. */
function contextKeysOf(clause: string): string[] {
  return clause
    .split(/\s*(?:&&|\|\|)\s*/)
    .map((part) => part.trim().replace(/^!/, ''))
    .filter((part) => !/^(view|viewItem)\s*(==|=~)/.test(part) && part !== 'false' && part !== 'true');
}

describe('constants agree with package.json', () => {
  it('names every contributed command, and package.json contributes every command id', () => {
    const declared = manifest.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual([...Object.values(CommandIds)].sort(), declared);
  });

  it('every context key a menu reads is one the extension sets', () => {
    const keys = new Set(whenClauses.flatMap(contextKeysOf));
    assert.ok(keys.size > 0, 'the clauses read at least one context key');
    for (const key of keys) assert.ok(Object.values(ContextKeys).includes(key as never), key);
  });

  it('every viewItem a menu matches is a contextValue the trees set, and every view is ours', () => {
    const items = Object.values(TreeItemContexts) as string[];
    let matched = 0;
    for (const clause of whenClauses) {
      for (const view of clause.matchAll(/\bview == ([\w.]+)/g))
        assert.ok(Object.values(ViewIds).includes(view[1] as never), view[1]);
      for (const exact of clause.matchAll(/\bviewItem == ([\w.]+)/g)) {
        assert.ok(items.includes(exact[1]!), exact[1]);
        matched++;
      }
      for (const pattern of clause.matchAll(/\bviewItem =~ \/(.+?)\/(?:\s|$)/g)) {
        const re = new RegExp(pattern[1]!);
        assert.ok(
          items.some((v) => re.test(v)),
          `${pattern[1]} matches no contextValue`,
        );
        matched++;
      }
    }
    assert.ok(matched >= 5, 'the clauses were read');
  });
});
