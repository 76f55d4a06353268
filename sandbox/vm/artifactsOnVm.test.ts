/**
 * The sandbox project's artifacts are hand-assembled (the project cannot compile Ralph yet), so nothing
 * but a run shows that their bytecode means what `counter.ral` and `token_faucet.ral` say. Each method is
 * run here on the project's VM (src/core/vm's `testContract`, the node's test-contract) in its release
 * and debug code, and checked against the statement of the source it stands for.
 */
import assert from 'node:assert/strict';
import { testContract, type TestContractResult } from '../../src/core/vm';
import { addressFromContractId } from '../../src/core/protocol';
import {
  counterDef,
  debugVariant,
  fieldsByMutability,
  tokenFaucetDef,
  type ContractDef,
  type Val,
} from './projectContracts';

const OWNER = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';
const STRANGER = '1BHSQ8JMeYHZe2kj3KmLjuQCSqHMBmXG5fuNE2PrCHusE';
/**
 * The contract under test's id. Not test-contract's default, the zero id: that is also ALPH's token id, so
 * the faucet's own token would be ALPH and `transferTokenFromSelf!` would move ALPH.
 */
const SELF_ID = '11'.repeat(32);
const SELF = addressFromContractId(SELF_ID);

type Ok = Extract<TestContractResult, { ok: true }>;

function run(
  def: ContractDef,
  method: string,
  args: Val[],
  options: { caller?: string; fields?: Record<string, Val> } = {},
): TestContractResult {
  const methodIndex = def.artifact.functions.findIndex((f) => f.name === method);
  assert.ok(methodIndex >= 0, `${def.name} has ${method}`);
  const fields = { ...def.initialFields(OWNER), ...options.fields };
  const { imm, mut } = fieldsByMutability(def.artifact.fieldsSig, fields);
  return testContract({
    address: SELF,
    bytecode: def.artifact.bytecode,
    initialImmFields: imm,
    initialMutFields: mut,
    initialAsset: {
      attoAlphAmount: String(def.initialAlph),
      tokens: def.initialSelfTokens > 0n ? [{ id: SELF_ID, amount: String(def.initialSelfTokens) }] : [],
    },
    methodIndex,
    args,
    inputAssets: [{ address: options.caller ?? OWNER, asset: { attoAlphAmount: String(10n ** 18n) } }],
  });
}

function ok(r: TestContractResult): Ok {
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r;
}

/** The node's words for a failed `assert!` or `checkCaller!` of the contract under test. */
const assertion = (code: number) =>
  new RegExp(`Assertion Failed in Contract @ ${SELF}, Error Code: ${code}$`);
const u256 = (v: bigint | number): Val => ({ type: 'U256', value: String(v) });
const mutOf = (r: Ok) => r.contracts.find((c) => c.address === SELF)?.mutFields;
const eventsOf = (r: Ok) => r.events.map((e) => ({ index: e.eventIndex, fields: e.fields }));

for (const variant of ['release', 'debug'] as const) {
  const pick = (def: ContractDef) => (variant === 'debug' ? debugVariant(def) : def);

  describe(`sandbox artifacts on the VM (${variant} code): Counter means counter.ral`, () => {
    const counter = pick(counterDef());

    it('get returns count', () => {
      const r = ok(run(counter, 'get', [], { fields: { count: u256(7) } }));
      assert.deepEqual(r.returns, [u256(7)]);
    });

    it('increment adds one, emits Incremented(caller, count), and Debug in the debug code only', () => {
      const r = ok(run(counter, 'increment', [], { caller: STRANGER, fields: { count: u256(4) } }));
      assert.deepEqual(mutOf(r)?.[0], u256(5));
      assert.deepEqual(eventsOf(r), [{ index: 0, fields: [{ type: 'Address', value: STRANGER }, u256(5)] }]);
      const debug = variant === 'debug' ? [{ contractAddress: SELF, message: 'count is now 5' }] : [];
      assert.deepEqual(r.debugMessages, debug);
    });

    it('incrementBy adds up to MaxStep (100) and refuses more with StepTooLarge (1)', () => {
      const r = ok(run(counter, 'incrementBy', [u256(100)], { fields: { count: u256(1) } }));
      assert.deepEqual(mutOf(r)?.[0], u256(101));
      assert.deepEqual(eventsOf(r), [{ index: 0, fields: [{ type: 'Address', value: OWNER }, u256(101)] }]);
      const refused = run(counter, 'incrementBy', [u256(101)]);
      assert.equal(refused.ok, false);
      assert.match(refused.ok ? '' : refused.error, assertion(1));
    });

    it('a paused counter refuses increment and incrementBy with Paused (2)', () => {
      const paused = { paused: { type: 'Bool', value: true } as Val };
      for (const [method, args] of [
        ['increment', []],
        ['incrementBy', [u256(1)]],
      ] as const) {
        const r = run(counter, method, [...args], { fields: paused });
        assert.match(r.ok ? '' : r.error, assertion(2), method);
      }
    });

    it('reset by the owner emits Reset(owner, previous) and zeroes count; anyone else gets NotOwner (0)', () => {
      const r = ok(run(counter, 'reset', [], { fields: { count: u256(9) } }));
      assert.deepEqual(mutOf(r)?.[0], u256(0));
      assert.deepEqual(eventsOf(r), [{ index: 1, fields: [{ type: 'Address', value: OWNER }, u256(9)] }]);
      const refused = run(counter, 'reset', [], { caller: STRANGER });
      assert.match(refused.ok ? '' : refused.error, assertion(0));
    });

    it('pause and unpause set paused for the owner only', () => {
      assert.deepEqual(mutOf(ok(run(counter, 'pause', [])))?.[1], { type: 'Bool', value: true });
      const paused = { paused: { type: 'Bool', value: true } as Val };
      assert.deepEqual(mutOf(ok(run(counter, 'unpause', [], { fields: paused })))?.[1], {
        type: 'Bool',
        value: false,
      });
      for (const method of ['pause', 'unpause']) {
        const r = run(counter, method, [], { caller: STRANGER });
        assert.match(r.ok ? '' : r.error, assertion(0), method);
      }
    });
  });

  describe(`sandbox artifacts on the VM (${variant} code): TokenFaucet means token_faucet.ral`, () => {
    const faucet = pick(tokenFaucetDef());
    const supply = faucet.initialSelfTokens;

    it('the IFungibleToken getters return the fields', () => {
      const fields = faucet.initialFields(OWNER);
      for (const [method, field] of [
        ['getSymbol', 'symbol'],
        ['getName', 'name'],
        ['getDecimals', 'decimals'],
        ['getTotalSupply', 'supply'],
        ['balance', 'balance'],
      ] as const) {
        assert.deepEqual(ok(run(faucet, method, [])).returns, [fields[field]], method);
      }
    });

    it('withdraw sends its own token to the caller, lowers balance and emits Withdraw(caller, amount)', () => {
      const r = ok(run(faucet, 'withdraw', [u256(2)], { caller: STRANGER }));
      assert.deepEqual(mutOf(r)?.[0], u256(supply - 2n));
      assert.deepEqual(r.contracts.find((c) => c.address === SELF)?.asset.tokens, [
        { id: SELF_ID, amount: String(supply - 2n) },
      ]);
      const toCaller = r.txOutputs.filter((o) => o.address === STRANGER);
      assert.ok(
        toCaller.some((o) => o.tokens.some((t) => t.id === SELF_ID && t.amount === '2')),
        JSON.stringify(r.txOutputs),
      );
      assert.deepEqual(eventsOf(r), [{ index: 0, fields: [{ type: 'Address', value: STRANGER }, u256(2)] }]);
      const debug =
        variant === 'debug' ? [{ contractAddress: SELF, message: `The current balance is ${supply}` }] : [];
      assert.deepEqual(r.debugMessages, debug);
    });

    it('withdraw of more than MaxWithdraw (2) fails with InvalidWithdrawAmount (0)', () => {
      const r = run(faucet, 'withdraw', [u256(3)]);
      assert.match(r.ok ? '' : r.error, assertion(0));
    });
  });
}
