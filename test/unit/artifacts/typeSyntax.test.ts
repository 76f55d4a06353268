import assert from 'node:assert/strict';
import {
  ArtifactError,
  MAX_TYPE_NESTING,
  parseConstantsFile,
  parseContractArtifact,
  parseScriptArtifact,
  parseStructs,
  ralphTypeProblem,
} from '../../../src/core/artifacts';
import { clone, fixtureJson, fixtureText } from './helpers';

const VAULT_FILE = 'artifacts/vault/Vault.ral.json';
/** What a cloned repository's artifact could put before a user who clicks Simulate (issue 27). */
const LINK = '[Open the type docs](command:workbench.extensions.installExtension?%5B%22evil.ext%22%5D)';

interface VaultShape {
  fieldsSig: { names: string[]; types: string[] };
  eventsSig: { fieldTypes: string[] }[];
  functions: { paramTypes: string[]; returnTypes: string[] }[];
  mapsSig: { names: string[]; types: string[] };
  constants: { value: { type: string } }[];
}

function vault(): VaultShape {
  return clone(fixtureJson(VAULT_FILE)) as unknown as VaultShape;
}

function refusal(fn: () => unknown): ArtifactError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ArtifactError, `expected an ArtifactError, got ${String(e)}`);
    return e;
  }
  assert.fail('the artifact was accepted');
}

describe('artifacts: type strings follow Ralph type syntax', () => {
  it('accepts every form the compiler writes: primitives, names, fixed and nested arrays, tuples', () => {
    for (const type of [
      'Bool',
      'I256',
      'U256',
      'ByteVec',
      'Address',
      'TokenPair',
      'IFungibleToken',
      '_Private',
      '[U256;3]',
      '[ByteVec;2]',
      '[[Bool;2];3]',
      '[[[Address;2];3];4]',
      '[Position;2]',
      '(U256,U256)',
      '(U256,Position)',
      '((U256,U256),Bool)',
      '[(U256,U256);2]',
    ])
      assert.equal(ralphTypeProblem(type), undefined, type);
  });

  it('accepts a map only as a whole mapsSig type', () => {
    assert.equal(ralphTypeProblem('Map[ByteVec,U256]', { allowMap: true }), undefined);
    assert.equal(ralphTypeProblem('Map[U256,[Address;2]]', { allowMap: true }), undefined);
    assert.match(ralphTypeProblem('Map[ByteVec,U256]') ?? '', /not a Ralph type/);
    assert.match(ralphTypeProblem('[Map[ByteVec,U256];2]', { allowMap: true }) ?? '', /not a Ralph type/);
  });

  it('refuses links, markup, spaces, quotes and broken brackets, naming the position but not quoting the text', () => {
    for (const type of [
      LINK,
      '$(alert) U256',
      'U256 ',
      ' U256',
      'U2 56',
      '<img src=x>',
      '"U256"',
      'U256\u202e',
      '[U256;]',
      '[U256;x]',
      '[U256,3]',
      '[U256;3',
      '(U256,)',
      '()',
      '(U256',
      'U256)',
      '9Lives',
      '',
    ]) {
      const problem = ralphTypeProblem(type);
      assert.ok(problem, `accepted ${JSON.stringify(type)}`);
      assert.ok(!problem.includes('command:'), problem);
    }
    assert.match(ralphTypeProblem(LINK) ?? '', /expected ';' at character 6, found U\+0020/);
    assert.match(ralphTypeProblem('U256\u202e') ?? '', /found U\+202E/);
  });

  it('bounds the nesting (one pass, no deep recursion on a hostile string)', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}U256${';2]'.repeat(depth)}`;
    assert.equal(ralphTypeProblem(nested(MAX_TYPE_NESTING)), undefined);
    assert.match(ralphTypeProblem(nested(MAX_TYPE_NESTING + 1)) ?? '', /nests more than 16 levels/);
    assert.match(ralphTypeProblem('('.repeat(100_000)) ?? '', /nests more than/);
  });

  it('refuses a contract artifact whose parameter type is a link, naming the file and the field', () => {
    const bad = vault();
    bad.functions[1]!.paramTypes[0] = LINK;
    const error = refusal(() => parseContractArtifact(bad, `/ws/${VAULT_FILE}`));
    assert.equal(error.field, 'functions.1.paramTypes.0');
    assert.match(error.message, /^Vault\.ral\.json: functions\.1\.paramTypes\.0: not a Ralph type/);
    assert.ok(!error.message.includes('command:'), error.message);
  });

  it('checks every type of a contract: fields, events, returns, maps and constants', () => {
    const cases: [string, (a: VaultShape) => void][] = [
      ['fieldsSig.types.1', (a) => (a.fieldsSig.types[1] = 'U256 (see docs)')],
      ['eventsSig.0.fieldTypes.1', (a) => (a.eventsSig[0]!.fieldTypes[1] = LINK)],
      ['functions.0.returnTypes.0', (a) => (a.functions[0]!.returnTypes = ['<b>U256</b>'])],
      ['mapsSig.types.0', (a) => (a.mapsSig.types[0] = 'Map[Address,U256](command:x)')],
      ['constants.0.value.type', (a) => (a.constants[0]!.value.type = LINK)],
      ['fieldsSig.types.0', (a) => (a.fieldsSig.types[0] = 'Map[Address,U256]')],
    ];
    for (const [field, spoil] of cases) {
      const bad = vault();
      spoil(bad);
      assert.equal(refusal(() => parseContractArtifact(bad, VAULT_FILE)).field, field);
    }
  });

  it('checks the types of scripts, structs and constants files', () => {
    const script = clone(JSON.parse(fixtureText('artifacts/scripts/Deposit.ral.json'))) as {
      functions: { paramTypes: string[] }[];
    };
    script.functions[0]!.paramTypes[0] = LINK;
    assert.match(
      refusal(() => parseScriptArtifact(script, 'Deposit.ral.json')).message,
      /^Deposit\.ral\.json: functions\.0\.paramTypes\.0: not a Ralph type/,
    );
    const structs = JSON.parse(fixtureText('artifacts/structs.ral.json')) as { fieldTypes: string[] }[];
    structs[0]!.fieldTypes[0] = '[U256; 2]';
    assert.equal(refusal(() => parseStructs(structs, 'structs.ral.json')).field, '0.fieldTypes.0');
    const constants = { constants: [{ name: 'Fee', value: { type: LINK, value: '1' } }] };
    assert.equal(
      refusal(() => parseConstantsFile(constants, 'constants.ral.json')).field,
      'constants.0.value.type',
    );
  });

  it('keeps accepting the fixture project and a well-formed type it cannot decode', () => {
    assert.equal(parseContractArtifact(fixtureJson(VAULT_FILE), VAULT_FILE).name, 'Vault');
    const unknownStruct = vault();
    unknownStruct.functions[1]!.paramTypes[0] = '[FutureStruct;2]';
    assert.equal(parseContractArtifact(unknownStruct, VAULT_FILE).name, 'Vault');
  });
});
