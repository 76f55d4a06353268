import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactRegistry, type ContractArtifact } from '../../../src/core/artifacts';
import {
  MAX_EXPLANATION_CHARS,
  errorCodeNames,
  explainVmFailure,
  placeDebugMessages,
} from '../../../src/core/debugging/failureExplanation';
import { RalphSourceMap } from '../../../src/core/ralph/sourceMap';
import { sandboxArtifactFiles } from '../artifacts/helpers';
import { GLOBALS, OWNABLE, TOKEN, lineOf } from '../ralph/fixtures';

const SANDBOX = join(import.meta.dirname, '..', '..', '..', 'sandbox', 'project', 'contracts');
const counterRal = readFileSync(join(SANDBOX, 'counter.ral'), 'utf8');
const faucetRal = readFileSync(join(SANDBOX, 'token_faucet.ral'), 'utf8');
const registry = ArtifactRegistry.fromFiles(sandboxArtifactFiles());
const sources = RalphSourceMap.build([
  { path: 'contracts/counter.ral', text: counterRal },
  { path: 'contracts/token_faucet.ral', text: faucetRal },
]);
const COUNTER = '22fnZLkZJUSyhXgboirmJktWkEBRk1pV8L6gfpc53hvVM';
const FAUCET = '29E9VSez1vizNkuXApftPc6dkT4tGrHbNKVfyHDannagG';
const lookup = {
  artifactOf: (a: string) =>
    a === COUNTER ? registry.byName('Counter') : a === FAUCET ? registry.byName('TokenFaucet') : undefined,
  sources,
};

/** A Vault artifact as the compiler would write its constants and enums (inherited ones included). */
const vault = {
  kind: 'contract',
  name: 'Vault',
  constants: [
    { name: 'MaxWithdraw', value: { type: 'U256', value: '1000' } },
    { name: 'Unused', value: { type: 'U256', value: '7' } },
  ],
  enums: [
    {
      name: 'ErrorCodes',
      fields: [
        { name: 'InvalidAmount', value: { type: 'U256', value: '0' } },
        { name: 'InsufficientDeposit', value: { type: 'U256', value: '1' } },
        { name: 'InvalidCaller', value: { type: 'U256', value: '7' } },
      ],
    },
    { name: 'OwnableError', fields: [{ name: 'NotOwner', value: { type: 'U256', value: '100' } }] },
  ],
  functions: [],
} as unknown as ContractArtifact;
const globals = {
  constants: [{ name: 'Fee', value: { type: 'U256', value: '3' } }],
  enums: [{ name: 'Shared', fields: [{ name: 'Paused', value: { type: 'U256', value: '7' } }] }],
};
const VAULT_ADDR = '246bkA8WhUXXNqAoWp2GuqjtJtSbdnwPQQErSxZKMnhV2';
const vaultLookup = {
  artifactOf: (a: string) => (a === VAULT_ADDR ? vault : undefined),
  sources: RalphSourceMap.build([
    { path: 'contracts/vault.ral', text: TOKEN },
    { path: 'contracts/ownable.ral', text: OWNABLE },
    { path: 'contracts/globals.ral', text: GLOBALS },
  ]),
  globals,
};

describe('failure explainer', () => {
  it('explains Counter.incrementBy(101) at the asserting line, naming the error constant', () => {
    const e = explainVmFailure(
      `VM execution error: AssertionFailedWithErrorCode(${COUNTER},1)`,
      { address: COUNTER, method: 'incrementBy', args: ['101'], origin: 'simulate' },
      lookup,
    );
    assert.equal(e.contractName, 'Counter');
    assert.equal(e.errorName, 'ErrorCodes.StepTooLarge');
    assert.deepEqual(
      e.sites.map((s) => [s.path, s.kind, s.span.start.line]),
      [['contracts/counter.ral', 'assert', lineOf(counterRal, 'assert!(step <= MaxStep')]],
    );
    assert.match(
      e.message,
      /^Counter\.incrementBy\(101\) \(simulate\) failed — assertion in Counter failed: ErrorCodes\.StepTooLarge = 1/,
    );
    assert.match(e.message, /node: VM execution error/);
  });

  it('explains checkCaller! in reset with the tx id in the message', () => {
    const txId = 'ab'.repeat(32);
    const e = explainVmFailure(
      `Assertion Failed in Contract @ ${COUNTER}, Error Code: 0`,
      { address: COUNTER, method: 'reset', txId },
      lookup,
    );
    assert.equal(e.errorName, 'ErrorCodes.NotOwner');
    assert.deepEqual(
      e.sites.map((s) => [s.kind, s.span.start.line]),
      // ErrorCodes.NotOwner is checked in reset, pause and unpause: the call was reset, whose own check it is.
      [['checkCaller', lineOf(counterRal, 'checkCaller!', 0)]],
    );
    assert.match(e.message, new RegExp(`tx ${txId}`));
  });

  it('puts a failure without an error code at the called method', () => {
    const e = explainVmFailure(
      `VM execution error: NotEnoughBalance(${FAUCET})`,
      { address: FAUCET, method: 'withdraw', args: ['2'] },
      lookup,
    );
    assert.equal(e.errorName, undefined);
    assert.deepEqual(
      e.sites.map((s) => [s.path, s.kind, s.span.start.line]),
      [['contracts/token_faucet.ral', 'function', lineOf(faucetRal, 'pub fn withdraw')]],
    );
    assert.match(e.message, /NotEnoughBalance: not enough balance/);
  });

  it('finds sites in a parent contract and prefers the name the code uses among equal values', () => {
    const notOwner = explainVmFailure(
      `Assertion Failed in Contract @ ${VAULT_ADDR}, Error Code: 100`,
      { address: VAULT_ADDR, method: 'transferOwnership' },
      vaultLookup,
    );
    assert.equal(notOwner.errorName, 'OwnableError.NotOwner');
    assert.deepEqual(
      notOwner.sites.map((s) => [s.path, s.kind, s.span.start.line]),
      // transferOwnership checks NotOwner itself; onlyOwner's assert of the same code is another method's.
      [['contracts/ownable.ral', 'checkCaller', lineOf(OWNABLE, 'checkCaller!')]],
    );
    const fromElsewhere = explainVmFailure(
      `Assertion Failed in Contract @ ${VAULT_ADDR}, Error Code: 100`,
      { address: VAULT_ADDR, method: 'withdraw' },
      vaultLookup,
    );
    // A method without a check of its own: every site that uses the code may be the one.
    assert.equal(fromElsewhere.sites.length, 2);
    // 7 is ErrorCodes.InvalidCaller, the constant Unused and the global Shared.Paused: the sites say which.
    assert.deepEqual(errorCodeNames(7, vault, globals), [
      'ErrorCodes.InvalidCaller',
      'Unused',
      'Shared.Paused',
    ]);
    const seven = explainVmFailure(
      `Assertion Failed in Contract @ ${VAULT_ADDR}, Error Code: 7`,
      { address: VAULT_ADDR, method: 'pause' },
      vaultLookup,
    );
    assert.equal(seven.errorName, 'Shared.Paused or ErrorCodes.InvalidCaller');
    assert.deepEqual(
      seven.sites.map((s) => s.kind),
      ['assert', 'panic'],
    );
    const multiLine = explainVmFailure(
      `Assertion Failed in Contract @ ${VAULT_ADDR}, Error Code: 1`,
      { address: VAULT_ADDR, method: 'withdraw', args: ['5'] },
      vaultLookup,
    );
    assert.equal(multiLine.sites.length, 1);
    assert.equal(multiLine.sites[0]!.span.start.line, lineOf(TOKEN, 'assert!(', 2));
    assert.ok(multiLine.sites[0]!.span.end.line > multiLine.sites[0]!.span.start.line);
  });

  it('without an artifact or sources keeps the raw text and places nothing', () => {
    const raw = `VM execution error: Assertion Failed in Contract @ ${FAUCET.replace('2', '3')}, Error Code: 9`;
    const e = explainVmFailure(raw, { method: 'x' }, { artifactOf: () => undefined });
    assert.equal(e.contractName, undefined);
    assert.deepEqual(e.sites, []);
    assert.match(e.message, /error code 9/);
    assert.ok(e.message.includes(raw));
    const throwing = explainVmFailure(
      raw,
      { address: COUNTER },
      {
        artifactOf: () => {
          throw new Error('lookup broke');
        },
        sources,
      },
    );
    assert.deepEqual(throwing.sites, []);
    const garbage = explainVmFailure(
      'Script execution failed',
      { txId: 'cd'.repeat(32), origin: 'tracked' },
      lookup,
    );
    assert.match(garbage.message, /\(tracked\) failed — failed: Script execution failed · tx cdcd/);
  });

  it('places debug messages at the emit Debug whose template fits', () => {
    const hints = placeDebugMessages(
      [
        { contractAddress: COUNTER, message: 'count is now 5' },
        { contractAddress: COUNTER, message: 'something else' },
        { contractAddress: FAUCET, message: 'The current balance is 1000' },
        { contractAddress: 'unknown', message: 'count is now 1' },
      ],
      lookup,
      'increment',
    );
    assert.deepEqual(
      hints.map((h) => [h.path, h.line, h.message]),
      [
        ['contracts/counter.ral', lineOf(counterRal, 'emit Debug'), 'count is now 5'],
        ['contracts/token_faucet.ral', lineOf(faucetRal, 'emit Debug'), 'The current balance is 1000'],
      ],
    );
    const inVault = placeDebugMessages([{ contractAddress: VAULT_ADDR, message: 'withdraw 5' }], vaultLookup);
    assert.deepEqual(
      inVault.map((h) => h.line),
      [lineOf(TOKEN, 'emit Debug(`withdraw')],
    );
  });

  it('caps the explanation of a huge failure text and a huge argument', () => {
    const e = explainVmFailure(
      `VM execution error: SomeFutureFailure(${'x'.repeat(200_000)})`,
      { address: COUNTER, method: 'increment', args: [`0x${'ab'.repeat(50_000)}`], origin: 'simulate' },
      lookup,
    );
    assert.equal(e.failure.name, 'SomeFutureFailure');
    assert.ok(e.message.length <= MAX_EXPLANATION_CHARS + 40, `${e.message.length} characters`);
    assert.match(e.message, /^Counter\.increment\(0xabab.{0,400}\) \(simulate\) failed — /);
  });

  it('matches debug templates with several holes in one pass, with the same answers as before', () => {
    const ral = [
      'Contract Holes() {',
      '  pub fn f(a: U256) -> () {',
      '    emit Debug(`a${a}a${a}a${a}b`)',
      '    emit Debug(`sum ${a} + ${a} = ${a}`)',
      '    emit Debug(b`tick \\`${a}\\``)',
      '    emit Debug(`plain`)',
      '  }',
      '}',
    ].join('\n');
    const HOLES = '27ZmzaHVC9akqBtz3XKrAMDqGU1Tq3ZAQYcbu64pWLPqC';
    const holes = {
      artifactOf: (a: string) =>
        a === HOLES ? ({ kind: 'contract', name: 'Holes' } as unknown as ContractArtifact) : undefined,
      sources: RalphSourceMap.build([{ path: 'contracts/holes.ral', text: ral }]),
    };
    const lineOfEmit = (needle: string) => ral.split('\n').findIndex((l) => l.includes(needle));
    const place = (message: string) =>
      placeDebugMessages([{ contractAddress: HOLES, message }], holes, 'f').map((h) => h.line);
    // Three `[\s\S]*` holes against 8,000 `a`s and no `b`: the old regex tried every split, O(n^3)
    // (2,000 took 3 s, these would take minutes); one pass takes microseconds.
    assert.deepEqual(place('a'.repeat(8_000)), []);
    assert.deepEqual(place(`${'a'.repeat(8_000)}b`), [lineOfEmit('a${a}')]);
    assert.deepEqual(place('aaab'), [lineOfEmit('a${a}')]);
    assert.deepEqual(place('aab'), []);
    assert.deepEqual(place('sum 1 + 2 = 3'), [lineOfEmit('sum')]);
    assert.deepEqual(place('sum 1 = 3'), []);
    assert.deepEqual(place('tick `7`'), [lineOfEmit('tick')]);
    assert.deepEqual(place('plain'), [lineOfEmit('`plain`')]);
    assert.deepEqual(place('plain!'), []);
  });
});
