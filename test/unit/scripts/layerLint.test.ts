// The layer rules of the project's own eslint.config.mjs (read, not restated): the core imports only the core,
// src/constants.ts and npm packages, and the feature boundaries cover exactly the folders src/ has.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { tsFiles } from '../../helpers/tsFiles';

const ROOT = path.join(import.meta.dirname, '..', '..', '..');
const SRC = path.join(ROOT, 'src');
const RULE = 'house/core-imports-only-core';

interface LayerLintConfig {
  readonly housePlugin: NonNullable<Linter.Config['plugins']>[string];
}

let housePlugin: LayerLintConfig['housePlugin'] | undefined;

/** Loads the config as ESLint does (a computed specifier: it is plain JavaScript). */
async function loadLayerLintConfig(): Promise<void> {
  ({ housePlugin } = (await import(
    pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href
  )) as LayerLintConfig);
  assert.ok(housePlugin, 'the config exports the plugin of its core-imports rule');
}

/** The specifiers the core rule reports in `code`, linted as TypeScript at `file` (a path under src/). */
function reported(code: string, file: string): string[] {
  assert.ok(housePlugin);
  return new Linter({ configType: 'flat' })
    .verify(
      code,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          plugins: { house: housePlugin },
          rules: { [RULE]: 'error' },
        },
      ],
      path.join(SRC, file),
    )
    .map((m) => {
      assert.equal(m.ruleId, RULE, m.message);
      return m.message.slice(0, m.message.indexOf(':'));
    });
}

async function configFor(file: string): Promise<{ rules?: Record<string, unknown[]> }> {
  return (await new ESLint({ cwd: ROOT }).calculateConfigForFile(file)) as {
    rules?: Record<string, unknown[]>;
  };
}

describe('lint: src/core imports only src/core, src/constants.ts and npm packages', () => {
  before(loadLayerLintConfig);

  it('reports the four imports the core made of feature protocols, and vscode and the platform', () => {
    const code = [
      "import type { RequestUsageModel } from '../../usage/panel/protocol';",
      "import type { WhatHappenedView } from '../../transactions/txDetails/protocol';",
      "export type { TxDetailsModel } from '../../transactions/txDetails/protocol';",
      "import { PANEL_LIMITS } from '../../contracts/panel/protocol';",
      "import * as vscode from 'vscode';",
      "import type { Uri } from 'vscode/types';",
      "import { runCommand } from '../../platform/commands';",
      "export * from '../../extension';",
      'export const later = () => import("../../node/nodeView");',
      "export type Lazy = import('../../debugging/engine').Engine;",
      "const old = require('../../profiles/profileCommands');",
      // However many `../` it takes, a path out of the core is out of it.
      "import '../../../../../src/usage/panel/host';",
      "import '../ledger/../../statusBar/statusBarController';",
    ].join('\n');
    assert.deepEqual(reported(code, 'core/usage/probe.ts'), [
      '../../usage/panel/protocol',
      '../../transactions/txDetails/protocol',
      '../../transactions/txDetails/protocol',
      '../../contracts/panel/protocol',
      'vscode',
      'vscode/types',
      '../../platform/commands',
      '../../extension',
      '../../node/nodeView',
      '../../debugging/engine',
      '../../profiles/profileCommands',
      '../../../../../src/usage/panel/host',
      '../ledger/../../statusBar/statusBarController',
    ]);
  });

  it('allows the core, src/constants.ts, npm packages and Node builtins, at any depth', () => {
    const code = [
      "import { attoToAlph } from '../protocol';",
      "import type { TxDetailsModel } from './txDetailsProtocol';",
      "import { CommandIds } from '../../constants';",
      "import { CommandIds as Ids } from '../../constants.ts';",
      "import * as z from 'zod';",
      "import { blake2b } from '@noble/hashes/blake2';",
      "import * as fs from 'node:fs';",
      "export * from '../../core/util/guards';",
    ].join('\n');
    assert.deepEqual(reported(code, 'core/transactions/probe.ts'), []);
    assert.deepEqual(reported("import { CommandIds } from '../constants';", 'core/probe.ts'), []);
    assert.deepEqual(reported("import { X } from '../../../constants';", 'core/a/probe.ts'), [
      '../../../constants',
    ]);
  });

  it('is on for every file of src/core (the assistant core, with its own import rule, included)', async () => {
    for (const file of [
      'src/core/usage/usageView.ts',
      'src/core/assistant/toolBudget.ts',
      'src/core/index.ts',
    ])
      assert.deepEqual((await configFor(file)).rules?.[RULE], [2], file);
    assert.equal((await configFor('src/usage/panel/host.ts')).rules?.[RULE], undefined);
  });

  it('finds nothing in today’s core', function () {
    this.timeout(60_000);
    const files = tsFiles(path.join(SRC, 'core'));
    assert.ok(files.length > 100, `${files.length} core files`);
    for (const file of files)
      assert.deepEqual(reported(fs.readFileSync(file, 'utf8'), path.relative(SRC, file)), [], file);
  });
});

describe('lint: the feature boundaries cover exactly the folders of src/', () => {
  /** The feature names the boundary pattern of `file`'s folder lists (the other features). */
  async function boundaryOf(file: string): Promise<RegExp> {
    const rule = (await configFor(file)).rules?.['no-restricted-imports'] ?? [];
    const patterns = (rule[1] as { patterns?: { regex?: string }[] } | undefined)?.patterns ?? [];
    const boundary = patterns.find((p) => p.regex?.includes('index$'));
    assert.ok(boundary?.regex, `${file} has a feature boundary`);
    return new RegExp(boundary.regex);
  }

  const features = fs
    .readdirSync(SRC, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'core' && e.name !== 'platform')
    .map((e) => e.name);

  it('names only folders that exist, and each folder but its own', async () => {
    const boundary = await boundaryOf('src/contracts/contractsFeature.ts');
    const names = /\(([\w|]+)\)/.exec(boundary.source)?.[1]?.split('|') ?? [];
    assert.deepEqual([...names].sort(), features.filter((f) => f !== 'contracts').sort());
    for (const name of names) assert.ok(fs.statSync(path.join(SRC, name)).isDirectory(), name);
  });

  it('keeps every feature out of another one’s internals, onboarding included', async () => {
    assert.ok(features.includes('onboarding') && features.length >= 9, features.join());
    const contracts = await boundaryOf('src/contracts/contractsFeature.ts');
    assert.ok(contracts.test('../onboarding/walkthroughContext'));
    assert.ok(!contracts.test('../onboarding/index'));
    assert.ok(!contracts.test('../transactions/trackedTransactionsService'));
    const onboarding = await boundaryOf('src/onboarding/walkthroughContext.ts');
    assert.ok(onboarding.test('../contracts/contractsTree'));
    assert.ok(!onboarding.test('../contracts/index'));
  });
});
