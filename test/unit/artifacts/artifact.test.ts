import assert from 'node:assert/strict';
import {
  ArtifactError,
  MAX_NAME_CHARS,
  functionIndex,
  parseArtifactText,
  parseContractArtifact,
  parseScriptArtifact,
  parseStructs,
  parseProjectFile,
  parseJsonText,
  decodeFields,
} from '../../../src/core/artifacts';
import { blake2b256, bytesToHex, hexToBytes } from '../../../src/core/protocol';
import {
  clone,
  fixtureJson,
  fixtureText,
  sandboxArtifactFiles,
  VAULT_DEBUG_HASH,
  VAULT_HASH,
} from './helpers';

const VAULT_FILE = 'artifacts/vault/Vault.ral.json';

function expectArtifactError(fn: () => unknown, field: string | undefined, pattern: RegExp): ArtifactError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof ArtifactError, `expected an ArtifactError, got ${String(caught)}`);
  assert.equal(caught.field, field);
  assert.match(caught.message, pattern);
  return caught;
}

describe('artifacts: parsing .ral.json files', () => {
  it('parses a contract artifact with arrays, structs, a contract-typed field, maps and std interface', () => {
    const a = parseContractArtifact(fixtureJson(VAULT_FILE), VAULT_FILE);
    assert.equal(a.kind, 'contract');
    assert.equal(a.name, 'Vault');
    assert.equal(a.codeHash, VAULT_HASH);
    assert.deepEqual(a.fieldsSig.types, [
      'Address',
      'U256',
      '[U256;2]',
      '[[Bool;2];2]',
      'Account',
      'SimpleToken',
      'ByteVec',
    ]);
    assert.deepEqual(a.fieldsSig.isMutable, [false, true, false, true, true, false, false]);
    assert.deepEqual(
      a.eventsSig.map((e) => [e.name, e.fieldNames.length]),
      [
        ['Deposited', 2],
        ['Paused', 0],
        ['Moved', 3],
      ],
    );
    assert.equal(a.functions.length, 6);
    assert.equal(functionIndex(a, 'getLimits'), 4);
    assert.equal(functionIndex(a, 'nope'), -1);
    assert.deepEqual(a.mapsSig, { names: ['deposits'], types: ['Map[Address,U256]'] });
    assert.equal(a.stdInterfaceId, '0001');
    assert.equal(a.constants[0]?.name, 'MaxDeposit');
    assert.equal(a.enums[0]?.fields[1]?.name, 'OverLimit');
    assert.equal(a.file, VAULT_FILE);
  });

  it('the fixture code hashes are the Blake2b-256 of their bytecode (the compiler rule)', () => {
    const a = parseContractArtifact(fixtureJson(VAULT_FILE));
    assert.equal(bytesToHex(blake2b256(hexToBytes(a.bytecode))), a.codeHash);
  });

  it('parses the sandbox project artifacts (real compiler shape)', () => {
    const files = sandboxArtifactFiles();
    assert.ok(files.length >= 2);
    const names = files
      .map((f) => parseArtifactText(f.text, f.path))
      .map((p) => (p.kind === 'contract' ? p.name : p.kind));
    assert.ok(names.includes('Counter') && names.includes('TokenFaucet'), names.join(','));
  });

  it('normalises the code hash to lowercase and defaults missing constants/enums', () => {
    const json = clone(fixtureJson('artifacts/vault/SimpleToken.ral.json'));
    json.codeHash = String(json.codeHash).toUpperCase();
    delete json.constants;
    delete json.enums;
    const a = parseContractArtifact(json);
    assert.equal(a.codeHash, String(json.codeHash).toLowerCase());
    assert.deepEqual([a.constants, a.enums], [[], []]);
  });

  it('names the file and the field when a required field is missing', () => {
    const json = clone(fixtureJson(VAULT_FILE));
    delete json.eventsSig;
    const e = expectArtifactError(
      () => parseContractArtifact(json, `/ws/${VAULT_FILE}`),
      'eventsSig',
      /^Vault\.ral\.json: eventsSig:/,
    );
    assert.equal(e.file, `/ws/${VAULT_FILE}`);
  });

  it('rejects parallel arrays that do not line up (names vs isMutable)', () => {
    const json = clone(fixtureJson(VAULT_FILE)) as { fieldsSig: { isMutable: boolean[] } };
    json.fieldsSig.isMutable.pop();
    expectArtifactError(
      () => parseContractArtifact(json, VAULT_FILE),
      'fieldsSig.isMutable',
      /has 6 entries but names has 7/,
    );
  });

  it('rejects an event whose fieldNames and fieldTypes differ in length, naming the event entry', () => {
    const json = clone(fixtureJson(VAULT_FILE)) as { eventsSig: { fieldTypes: string[] }[] };
    json.eventsSig[2]?.fieldTypes.push('U256');
    expectArtifactError(
      () => parseContractArtifact(json, VAULT_FILE),
      'eventsSig.2.fieldTypes',
      /must line up/,
    );
  });

  it('keeps a file with one type it cannot read: only that field degrades to raw values with the reason', () => {
    const bad = clone(fixtureJson(VAULT_FILE)) as { fieldsSig: { names: string[]; types: string[] } };
    // Well-formed Ralph syntax (so the file is read) that no decoder accepts: an array of no elements.
    bad.fieldsSig.types[2] = '[U256;0]';
    const artifact = parseContractArtifact(bad, VAULT_FILE);
    assert.equal(artifact.name, 'Vault', 'the file is not discarded');
    const vals = artifact.fieldsSig.names.map(() => ({ type: 'U256', value: '1' }));
    const decoded = decodeFields(artifact.fieldsSig.names, artifact.fieldsSig.types, vals);
    assert.equal(decoded.ok, false);
    assert.match(!decoded.ok ? decoded.error : '', new RegExp(`${bad.fieldsSig.names[2]}: .*invalid size`));
    assert.equal(!decoded.ok && decoded.raw.length, vals.length, 'the values are still shown, raw');
  });

  it('parses a .project.json whose scripts, interfaces and structs have an empty codeHashDebug', () => {
    const p = parseProjectFile({
      fullNodeVersion: 'v4.6.0',
      compilerOptionsUsed: {},
      infos: {
        Vault: {
          sourceFile: 'vault.ral',
          sourceCodeHash: 'ab'.repeat(32),
          bytecodeDebugPatch: '',
          codeHashDebug: VAULT_DEBUG_HASH,
        },
        Deposit: {
          sourceFile: 'deposit.ral',
          sourceCodeHash: 'cd'.repeat(32),
          bytecodeDebugPatch: '',
          codeHashDebug: '',
        },
        IVault: {
          sourceFile: 'ivault.ral',
          sourceCodeHash: 'ef'.repeat(32),
          bytecodeDebugPatch: '',
          codeHashDebug: '',
        },
      },
    });
    assert.equal(p.infos.get('Vault')?.codeHashDebug, VAULT_DEBUG_HASH);
    assert.equal(p.infos.get('Deposit')?.codeHashDebug, undefined, 'empty means no debug build');
    assert.equal(p.infos.get('IVault')?.codeHashDebug, undefined);
  });

  it('rejects a non-hex code hash', () => {
    const hash = clone(fixtureJson(VAULT_FILE));
    hash.codeHash = 'zz';
    expectArtifactError(() => parseContractArtifact(hash, VAULT_FILE), 'codeHash', /32-byte hex/);
  });

  it('reports invalid JSON with the file name', () => {
    expectArtifactError(
      () => parseJsonText('{"name": ', 'artifacts/Broken.ral.json'),
      undefined,
      /^Broken\.ral\.json: not valid JSON/,
    );
  });

  it('parses script artifacts (bytecodeTemplate with {n} holes), also through parseArtifactText', () => {
    const text = fixtureText('artifacts/scripts/Deposit.ral.json');
    const s = parseArtifactText(text, 'artifacts/scripts/Deposit.ral.json');
    assert.equal(s.kind, 'script');
    assert.equal(s.kind === 'script' && s.bytecodeTemplate, '01010300000005{0}{1}0e0c{0}0100');
    const bad = JSON.parse(text) as Record<string, unknown>;
    bad.bytecodeTemplate = '0101{x}';
    expectArtifactError(
      () => parseScriptArtifact(bad, 'Deposit.ral.json'),
      'bytecodeTemplate',
      /placeholders/,
    );
  });

  it('parses structs.ral.json and rejects duplicate struct names', () => {
    const f = parseArtifactText(fixtureText('artifacts/structs.ral.json'), 'artifacts/structs.ral.json');
    assert.equal(f.kind, 'structs');
    assert.deepEqual(f.kind === 'structs' && f.structs.map((s) => s.name), ['Position', 'Account']);
    const dup = [...(JSON.parse(fixtureText('artifacts/structs.ral.json')) as unknown[])];
    dup.push(dup[0]);
    expectArtifactError(() => parseStructs(dup, 'structs.ral.json'), '2.name', /duplicate struct 'Position'/);
  });

  it('parses .project.json debug code hashes and constants.ral.json', () => {
    const p = parseProjectFile(fixtureJson('artifacts/.project.json'));
    assert.equal(p.infos.get('Vault')?.codeHashDebug, VAULT_DEBUG_HASH);
    const c = parseArtifactText(fixtureText('artifacts/constants.ral.json'), 'artifacts/constants.ral.json');
    assert.equal(c.kind === 'constants' && c.constants[0]?.name, 'FeeBps');
  });

  it('accepts only Ralph identifiers as names, naming the file, the field and the bad name', () => {
    type Vault = {
      name: string;
      fieldsSig: { names: string[] };
      eventsSig: { name: string; fieldNames: string[] }[];
      functions: { name: string; paramNames: string[] }[];
      constants: { name: string }[];
      enums: { name: string; fields: { name: string }[] }[];
      mapsSig: { names: string[] };
    };
    const places: [string, (v: Vault, bad: string) => void][] = [
      ['name', (v, bad) => (v.name = bad)],
      ['fieldsSig.names.1', (v, bad) => (v.fieldsSig.names[1] = bad)],
      ['eventsSig.0.name', (v, bad) => (v.eventsSig[0]!.name = bad)],
      ['eventsSig.0.fieldNames.0', (v, bad) => (v.eventsSig[0]!.fieldNames[0] = bad)],
      ['functions.2.name', (v, bad) => (v.functions[2]!.name = bad)],
      ['functions.0.paramNames.0', (v, bad) => (v.functions[0]!.paramNames[0] = bad)],
      ['constants.0.name', (v, bad) => (v.constants[0]!.name = bad)],
      ['enums.0.name', (v, bad) => (v.enums[0]!.name = bad)],
      ['enums.0.fields.1.name', (v, bad) => (v.enums[0]!.fields[1]!.name = bad)],
      ['mapsSig.names.0', (v, bad) => (v.mapsSig.names[0] = bad)],
    ];
    const badNames: [string, RegExp][] = [
      [
        '[see the changelog](command:workbench.action.terminal.sendSequence)',
        /"\[see the changelog\] \(command:.*" is not a Ralph identifier/,
      ],
      ['Counter\u202e', /is not a Ralph identifier/],
      ['two words', /"two words" is not a Ralph identifier \(a letter or _, then letters, digits or _\)/],
      ['1st', /"1st" is not a Ralph identifier/],
      ['', /expected a name, got an empty string/],
      [
        'A'.repeat(MAX_NAME_CHARS + 1),
        new RegExp(`is ${MAX_NAME_CHARS + 1} characters long; names are at most ${MAX_NAME_CHARS}`),
      ],
    ];
    for (const [field, put] of places) {
      for (const [bad, message] of badNames) {
        const json = clone(fixtureJson(VAULT_FILE)) as unknown as Vault;
        put(json, bad);
        const e = expectArtifactError(() => parseContractArtifact(json, VAULT_FILE), field, message);
        assert.ok(e.message.startsWith(`Vault.ral.json: ${field}: `), e.message);
        assert.ok(!e.message.includes(']('), 'the bad name is quoted without link syntax');
      }
    }
    // Names of the compiler's own (`__stdInterfaceId`) and at the bound are identifiers.
    const longest = clone(fixtureJson(VAULT_FILE)) as unknown as Vault;
    longest.name = `_${'a'.repeat(MAX_NAME_CHARS - 1)}`;
    assert.equal(parseContractArtifact(longest, VAULT_FILE).fieldsSig.names.at(-1), '__stdInterfaceId');
  });

  it('checks names in scripts, structs and .project.json, and bounds types and the interface id', () => {
    const script = clone(JSON.parse(fixtureText('artifacts/scripts/Deposit.ral.json'))) as {
      name: string;
    };
    script.name = 'De posit';
    expectArtifactError(() => parseScriptArtifact(script, 'Deposit.ral.json'), 'name', /"De posit" is not/);
    const structs = JSON.parse(fixtureText('artifacts/structs.ral.json')) as { fieldNames: string[] }[];
    structs[0]!.fieldNames[1] = 'y-axis';
    expectArtifactError(() => parseStructs(structs, 'structs.ral.json'), '0.fieldNames.1', /"y-axis" is not/);
    expectArtifactError(
      () => parseProjectFile({ infos: { 'Vault<img src=x>': {} } }, '.project.json'),
      'infos',
      /^\.project\.json: infos: "Vault<img src=x>" is not a Ralph identifier/,
    );
    const typed = clone(fixtureJson(VAULT_FILE)) as {
      fieldsSig: { types: string[] };
      stdInterfaceId?: string;
    };
    typed.fieldsSig.types[0] = `[U256;${'9'.repeat(600)}]`;
    expectArtifactError(() => parseContractArtifact(typed, VAULT_FILE), 'fieldsSig.types.0', /at most 512/);
    const std = clone(fixtureJson(VAULT_FILE)) as { stdInterfaceId?: string };
    std.stdInterfaceId = '00zz';
    expectArtifactError(() => parseContractArtifact(std, VAULT_FILE), 'stdInterfaceId', /hex digits/);
  });
});
