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
  contributes: {
    commands: { command: string }[];
    menus: Record<string, MenuItem[]>;
    walkthroughs: {
      steps: { id: string; description: string; media: { svg: string }; completionEvents: string[] }[];
    }[];
  };
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

  it('the walkthrough: each step completes on a context key the extension sets, and has a button that runs one of its commands', () => {
    const steps = manifest.contributes.walkthroughs.flatMap((w) => w.steps);
    assert.deepEqual(
      steps.map((s) => s.id),
      ['connect', 'signer', 'watch', 'simulate', 'deploy'],
    );
    const commands = Object.values(CommandIds) as string[];
    for (const step of steps) {
      assert.ok(step.completionEvents.length > 0, step.id);
      for (const event of step.completionEvents) {
        const key = /^onContext:([\w.]+)$/.exec(event)?.[1];
        assert.ok(key && Object.values(ContextKeys).includes(key as never), `${step.id}: ${event}`);
      }
      const links = [...step.description.matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]!);
      assert.ok(links.length > 0, `${step.id} has a button`);
      for (const link of links) assert.ok(commands.includes(link), `${step.id}: ${link}`);
      const svg = fs.readFileSync(path.join(import.meta.dirname, '..', '..', '..', step.media.svg), 'utf8');
      // Follows the theme: colours come from the theme's variables, not from fixed values.
      assert.ok(svg.includes('var(--vscode-foreground'), step.media.svg);
      assert.ok(!/#[0-9a-f]{3,6}\b/i.test(svg), `${step.media.svg} has a fixed colour`);
      assert.ok(svg.length < 4096, `${step.media.svg} is small`);
    }
  });
});
