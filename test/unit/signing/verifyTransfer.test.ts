import { strict as assert } from 'node:assert';
import {
  DUST_ATTO,
  ONE_ALPH,
  decodeUnsignedTx,
  encodeUnsignedTx,
  p2pkhUnlockScript,
  txIdFromUnsignedTx,
} from '../../../src/core/protocol';
import { verifyTxIdSignature } from '../../../src/core/protocol/keys';
import {
  NotVerifiedError,
  TransferVerificationError,
  VerifiedTransfer,
  isVerifiedTransfer,
  signVerifiedTransfer,
  verifyTransfer,
  type VerificationCheck,
} from '../../../src/core/signing/verify';
import {
  ATTACKER,
  RECIPIENT,
  SECOND,
  SENDER,
  TOKEN_ID,
  decodeResponseFor,
  hintOf,
  honestRequest,
  honestTx,
  out,
  refKey,
  responseFor,
} from './verifyFixtures';

/** Asserts that `fn` throws a TransferVerificationError whose first problem is `check` matching `message`. */
function refused(fn: () => unknown, check: VerificationCheck, message: RegExp): TransferVerificationError {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(
    error instanceof TransferVerificationError,
    `expected a TransferVerificationError, got ${String(error)}`,
  );
  assert.equal(error.check, check, error.message);
  assert.match(error.message, message);
  assert.match(error.message, /^Refusing to sign/);
  return error;
}

describe('verifyTransfer: honest builds', () => {
  it('verifies an honest transfer and reports fee, outputs, change and total', () => {
    const tx = honestTx();
    const v = verifyTransfer(honestRequest(), responseFor(tx));
    assert.ok(isVerifiedTransfer(v));
    assert.equal(v.txId, txIdFromUnsignedTx(encodeUnsignedTx(tx)));
    assert.equal(v.fee, 20000n * 10n ** 11n);
    assert.deepEqual(
      v.outputs.map((o) => [o.address, o.attoAlphAmount]),
      [[RECIPIENT.address, ONE_ALPH]],
    );
    assert.deepEqual(
      v.change.map((o) => [o.address, o.attoAlphAmount]),
      [[SENDER.address, 5n * ONE_ALPH]],
    );
    assert.equal(v.totalAlphSpent, ONE_ALPH + v.fee);
    assert.equal(v.fromAddress, SENDER.address);
    assert.equal(v.networkId, 4);
    assert.ok(Object.isFrozen(v) && Object.isFrozen(v.outputs) && Object.isFrozen(v.outputs[0]));
  });

  it('accepts amounts given as strings, several destinations, tokens with token change, and no change at all', () => {
    const tx = honestTx([
      out(RECIPIENT.address, 2n * ONE_ALPH),
      out(SECOND.address, DUST_ATTO, { tokens: [{ id: TOKEN_ID, amount: '7' }] }),
      out(SENDER.address, DUST_ATTO, { tokens: [{ id: TOKEN_ID, amount: '93' }] }),
      out(SENDER.address, 3n * ONE_ALPH),
    ]);
    const v = verifyTransfer(
      honestRequest({
        destinations: [
          { address: RECIPIENT.address, attoAlphAmount: '2000000000000000000' },
          {
            address: SECOND.address,
            attoAlphAmount: DUST_ATTO,
            tokens: [{ id: TOKEN_ID.toUpperCase(), amount: 7n }],
          },
        ],
      }),
      responseFor(tx),
    );
    assert.equal(v.outputs.length, 2);
    assert.equal(v.change.length, 2);
    assert.deepEqual(v.tokensSpent, [{ id: TOKEN_ID, amount: 7n }]);
    assert.equal(v.totalAlphSpent, 2n * ONE_ALPH + DUST_ATTO + v.fee);

    const exact = verifyTransfer(honestRequest(), responseFor(honestTx([out(RECIPIENT.address, ONE_ALPH)])));
    assert.equal(exact.change.length, 0);
  });

  it("accepts the gateway's decoding when it re-encodes to the very bytes", () => {
    const tx = honestTx();
    const v = verifyTransfer(honestRequest(), responseFor(tx), decodeResponseFor(tx));
    assert.equal(v.txId, txIdFromUnsignedTx(encodeUnsignedTx(tx)));
  });

  it('accepts requested gas and a larger configured fee cap', () => {
    const tx = { ...honestTx(), gasAmount: 30000, gasPrice: String(2n * 10n ** 11n) };
    const v = verifyTransfer(
      honestRequest({ gasAmount: 30000, gasPrice: 2n * 10n ** 11n }),
      responseFor(tx),
      undefined,
      { feeCapAtto: ONE_ALPH, expectedNetworkId: 4 },
    );
    assert.equal(v.fee, 30000n * 2n * 10n ** 11n);
  });
});

describe('verifyTransfer: tampering is refused with a message saying what differed', () => {
  it('refuses another recipient', () => {
    const tx = honestTx([out(ATTACKER.address, ONE_ALPH), out(SENDER.address, 5n * ONE_ALPH)]);
    refused(
      () => verifyTransfer(honestRequest(), responseFor(tx)),
      'outputs',
      new RegExp(`output 0 pays ${ATTACKER.address}, but destination 0 is ${RECIPIENT.address}`),
    );
  });

  it('refuses another amount', () => {
    const tx = honestTx([out(RECIPIENT.address, 2n * ONE_ALPH), out(SENDER.address, 4n * ONE_ALPH)]);
    refused(
      () => verifyTransfer(honestRequest(), responseFor(tx)),
      'outputs',
      /output 0 carries 2 ALPH \(2000000000000000000 atto\), but destination 0 asked for 1 ALPH \(1000000000000000000 atto\)/,
    );
  });

  it('refuses an extra output to somebody else', () => {
    const tx = honestTx([
      out(RECIPIENT.address, ONE_ALPH),
      out(ATTACKER.address, ONE_ALPH),
      out(SENDER.address, 4n * ONE_ALPH),
    ]);
    refused(
      () => verifyTransfer(honestRequest(), responseFor(tx)),
      'outputs',
      new RegExp(
        `output 1 \\(1 ALPH .*\\) pays ${ATTACKER.address}: it is neither a requested destination nor change`,
      ),
    );
  });

  it('refuses a missing destination, other tokens, a lockTime and a message that were not asked for', () => {
    refused(
      () =>
        verifyTransfer(
          honestRequest({
            destinations: [
              { address: RECIPIENT.address, attoAlphAmount: ONE_ALPH },
              { address: SECOND.address, attoAlphAmount: ONE_ALPH },
            ],
          }),
          responseFor(honestTx([out(RECIPIENT.address, ONE_ALPH)])),
        ),
      'outputs',
      /1 output\(s\), fewer than the 2 requested destination/,
    );
    const tokenTx = honestTx([out(RECIPIENT.address, ONE_ALPH, { tokens: [{ id: TOKEN_ID, amount: '5' }] })]);
    refused(
      () => verifyTransfer(honestRequest(), responseFor(tokenTx)),
      'outputs',
      /output 0 carries 5 of token .*, but destination 0 asked for no tokens/,
    );
    const locked = honestTx([out(RECIPIENT.address, ONE_ALPH, { lockTime: 1_900_000_000_000 })]);
    refused(
      () => verifyTransfer(honestRequest(), responseFor(locked)),
      'outputs',
      /locked until 1900000000000/,
    );
    const message = honestTx([out(RECIPIENT.address, ONE_ALPH, { message: 'beef' })]);
    refused(() => verifyTransfer(honestRequest(), responseFor(message)), 'outputs', /message 'beef'/);
  });

  it('refuses change that is time-locked, a second ALPH change, or change below dust', () => {
    const locked = honestTx([
      out(RECIPIENT.address, ONE_ALPH),
      out(SENDER.address, ONE_ALPH, { lockTime: 5 }),
    ]);
    refused(
      () => verifyTransfer(honestRequest(), responseFor(locked)),
      'outputs',
      /change output 1 .* time-locked/,
    );
    const two = honestTx([
      out(RECIPIENT.address, ONE_ALPH),
      out(SENDER.address, ONE_ALPH),
      out(SENDER.address, ONE_ALPH),
    ]);
    refused(() => verifyTransfer(honestRequest(), responseFor(two)), 'outputs', /second ALPH change output/);
    const dust = honestTx([out(RECIPIENT.address, ONE_ALPH), out(SENDER.address, 1n)]);
    refused(() => verifyTransfer(honestRequest(), responseFor(dust)), 'outputs', /below the dust minimum/);
  });

  it('refuses a txId that is not the hash of the bytes', () => {
    const tx = honestTx();
    const honest = responseFor(tx);
    const other = txIdFromUnsignedTx(`${honest.unsignedTx}00`);
    refused(
      () => verifyTransfer(honestRequest(), { ...honest, txId: other }),
      'txid',
      new RegExp(`txId ${other} is not blake2b-256 of the unsigned transaction bytes \\(${honest.txId}\\)`),
    );
  });

  it('refuses a lying decode endpoint (honest-looking decoding over tampered bytes)', () => {
    const tampered = honestTx([out(ATTACKER.address, ONE_ALPH), out(SENDER.address, 5n * ONE_ALPH)]);
    const lie = {
      ...decodeResponseFor(honestTx()),
      unsignedTx: { ...decodeResponseFor(honestTx()).unsignedTx },
    };
    // The lie even claims the tampered bytes' txId, as a careful attacker would.
    lie.unsignedTx.txId = txIdFromUnsignedTx(encodeUnsignedTx(tampered));
    const error = refused(
      () => verifyTransfer(honestRequest(), responseFor(tampered), lie),
      'gateway-decode',
      /decode endpoint describes a different transaction than the bytes it built/,
    );
    // The local decode catches the recipient too: both are reported.
    assert.ok(error.has('outputs'));
  });

  it('refuses a decoding that cannot be re-encoded', () => {
    const tx = honestTx();
    const bad = decodeResponseFor(tx);
    const broken = { ...bad, unsignedTx: { ...bad.unsignedTx, gasPrice: '-1' } };
    refused(
      () => verifyTransfer(honestRequest(), responseFor(tx), broken),
      'gateway-decode',
      /cannot be re-encoded/,
    );
  });

  it('refuses a transfer that carries a script', () => {
    // One public method with no instructions: the smallest well-formed script.
    const tx = { ...honestTx(), scriptOpt: '01010000000000' };
    assert.equal(decodeUnsignedTx(encodeUnsignedTx(tx)).scriptOpt, '01010000000000');
    refused(() => verifyTransfer(honestRequest(), responseFor(tx)), 'script', /carries a script \(7 bytes\)/);
  });

  it('refuses inputs of another key, a P2SH/other unlock, SameAsPrevious first, or the same output twice', () => {
    const other = honestTx();
    other.inputs = [
      {
        outputRef: { hint: hintOf(SENDER.address), key: refKey('a') },
        unlockScript: p2pkhUnlockScript(ATTACKER.publicKey),
      },
    ];
    refused(
      () => verifyTransfer(honestRequest(), responseFor(other)),
      'inputs',
      new RegExp(
        `input 0 is unlocked with public key ${ATTACKER.publicKey}, not the sender's key ${SENDER.publicKey}`,
      ),
    );
    const mixed = honestTx();
    mixed.inputs = [
      mixed.inputs[0]!,
      { outputRef: { hint: 1, key: refKey('c') }, unlockScript: p2pkhUnlockScript(ATTACKER.publicKey) },
    ];
    refused(
      () => verifyTransfer(honestRequest(), responseFor(mixed)),
      'inputs',
      /input 1 is unlocked with public key/,
    );
    const p2pk = honestTx();
    p2pk.inputs = [p2pk.inputs[0]!, { outputRef: { hint: 1, key: refKey('d') }, unlockScript: '05' }];
    refused(
      () => verifyTransfer(honestRequest(), responseFor(p2pk)),
      'inputs',
      /input 1 is unlocked by a P2PK unlock script/,
    );
    const first = honestTx();
    first.inputs = [{ outputRef: { hint: hintOf(SENDER.address), key: refKey('a') }, unlockScript: '03' }];
    refused(
      () => verifyTransfer(honestRequest(), responseFor(first)),
      'inputs',
      /input 0 uses SameAsPrevious/,
    );
    const twice = honestTx();
    twice.inputs = [twice.inputs[0]!, { ...twice.inputs[0]!, unlockScript: '03' }];
    refused(
      () => verifyTransfer(honestRequest(), responseFor(twice)),
      'inputs',
      /input 1 spends output .* a second time/,
    );
  });

  it('refuses a fee raised under the cap when no gas was asked for: price above the minimum, or gas beyond the shape', () => {
    // x100 the price: 0.2 ALPH instead of 0.002, under the 1 ALPH cap, and nobody asked for it.
    const pricey = { ...honestTx(), gasPrice: String(10n ** 13n) };
    refused(
      () => verifyTransfer(honestRequest(), responseFor(pricey)),
      'gas',
      /gasPrice is 10000000000000, but none was requested and the network minimum is 100000000000/,
    );
    // x100 the gas: 2,000,000 for a 2-input, 2-output transfer.
    const greedy = { ...honestTx(), gasAmount: 2_000_000 };
    refused(
      () => verifyTransfer(honestRequest(), responseFor(greedy)),
      'gas',
      /gasAmount is 2000000, more than a transfer of 2 input\(s\) and 2 output\(s\) needs \(at most 25000\)/,
    );
    // What the user asks for explicitly is what they get (within the cap).
    assert.doesNotThrow(() =>
      verifyTransfer(
        { ...honestRequest(), gasAmount: 2_000_000 },
        responseFor({ ...greedy, gasPrice: String(10n ** 11n) }),
      ),
    );
  });

  it('a devnet profile refuses bytes for mainnet or testnet (replay)', () => {
    for (const networkId of [0, 1]) {
      const tx = { ...honestTx(), networkId };
      refused(
        () => verifyTransfer(honestRequest(), responseFor(tx), undefined, { refusedNetworkIds: [0, 1] }),
        'network',
        new RegExp(`network id ${networkId} \\((mainnet|testnet)\\), but the active profile is a devnet`),
      );
    }
  });

  it('refuses a fee above the cap (default 1 ALPH, configurable)', () => {
    const tx = { ...honestTx(), gasPrice: String(10n ** 14n) }; // 20000 × 1e14 = 2 ALPH
    // Even a gas price the user asked for cannot take the fee over the cap.
    refused(
      () => verifyTransfer({ ...honestRequest(), gasPrice: 10n ** 14n }, responseFor(tx)),
      'fee',
      /fee 2 ALPH \(2000000000000000000 atto\) \(gas 20000 × price 100000000000000\) exceeds the cap of 1 ALPH/,
    );
    refused(
      () => verifyTransfer(honestRequest(), responseFor(honestTx()), undefined, { feeCapAtto: 10n ** 15n }),
      'fee',
      /exceeds the cap of 0\.001 ALPH/,
    );
  });

  it('refuses gas that differs from the response or from the request', () => {
    const tx = honestTx();
    refused(
      () => verifyTransfer(honestRequest(), responseFor(tx, { gasAmount: 19999 })),
      'gas',
      /reports gasAmount 19999, but the bytes say 20000/,
    );
    refused(
      () => verifyTransfer(honestRequest(), responseFor(tx, { gasPrice: '1' })),
      'gas',
      /reports gasPrice 1, but the bytes say 100000000000/,
    );
    refused(
      () => verifyTransfer(honestRequest({ gasAmount: 25000 }), responseFor(tx)),
      'gas',
      /gasAmount is 20000, but 25000 was requested/,
    );
    refused(
      () => verifyTransfer(honestRequest({ gasPrice: '200000000000' }), responseFor(tx)),
      'gas',
      /gasPrice is 100000000000, but 200000000000 was requested/,
    );
  });

  it('refuses inconsistent groups and a foreign network', () => {
    const tx = honestTx();
    const honest = responseFor(tx);
    refused(
      () => verifyTransfer(honestRequest(), { ...honest, fromGroup: (honest.fromGroup + 1) % 4 }),
      'groups',
      /reports fromGroup \d, but the bytes give \d/,
    );
    refused(
      () => verifyTransfer(honestRequest(), { ...honest, toGroup: (honest.toGroup + 1) % 4 }),
      'groups',
      /reports toGroup/,
    );
    // Flipping the hint's low bit changes its xor-fold, so the inputs move to another group.
    const wrongHint = honestTx();
    wrongHint.inputs = [
      { ...wrongHint.inputs[0]!, outputRef: { hint: hintOf(SENDER.address) ^ 1, key: refKey('a') } },
    ];
    refused(
      () => verifyTransfer(honestRequest(), responseFor(wrongHint)),
      'groups',
      /the inputs are in group \d, but the sender .* is in group \d/,
    );
    refused(
      () => verifyTransfer(honestRequest(), honest, undefined, { expectedNetworkId: 0 }),
      'network',
      /network id 4, but the active profile is network id 0/,
    );
  });

  it('refuses a build with funding transactions (Danube groupless) instead of signing half of it', () => {
    const honest = responseFor(honestTx());
    refused(
      () => verifyTransfer(honestRequest(), { ...honest, fundingTxs: [honest] }),
      'funding-txs',
      /carries 1 funding transaction\(s\).*never signs only part/,
    );
    // An empty list is nothing to sign.
    assert.ok(verifyTransfer(honestRequest(), { ...honest, fundingTxs: [] }));
  });

  it('refuses bytes that do not decode, and lists every problem of a multiply-tampered build', () => {
    refused(
      () =>
        verifyTransfer(honestRequest(), {
          ...responseFor(honestTx()),
          unsignedTx: '0000',
          txId: txIdFromUnsignedTx('0000'),
        }),
      'decode',
      /cannot be decoded locally/,
    );
    const tx = { ...honestTx([out(ATTACKER.address, 3n * ONE_ALPH)]), gasPrice: String(10n ** 14n) };
    const error = refused(() => verifyTransfer(honestRequest(), responseFor(tx)), 'outputs', /4 problems/);
    assert.deepEqual(
      error.problems.map((p) => p.check),
      ['outputs', 'outputs', 'gas', 'fee'],
    );
  });
});

describe('signVerifiedTransfer: only verified transfers, only the right key', () => {
  it('signs a verified transfer with a signature the node accepts', () => {
    const v = verifyTransfer(honestRequest(), responseFor(honestTx()));
    const signed = signVerifiedTransfer(v, SENDER.privateKey);
    assert.equal(signed.txId, v.txId);
    assert.ok(verifyTxIdSignature(v.txId, signed.signature, SENDER.publicKey));
  });

  it('refuses look-alikes that did not come out of verification', () => {
    const v = verifyTransfer(honestRequest(), responseFor(honestTx()));
    const forged = Object.assign(Object.create(VerifiedTransfer.prototype) as VerifiedTransfer, { ...v });
    assert.throws(() => signVerifiedTransfer(forged, SENDER.privateKey), NotVerifiedError);
    assert.throws(() => signVerifiedTransfer({ ...v }, SENDER.privateKey), NotVerifiedError);
    const ctor = VerifiedTransfer as unknown as new (t: symbol, f: unknown) => VerifiedTransfer;
    assert.throws(
      () => new ctor(Symbol('VerifiedTransfer.issue'), { ...v }),
      /can only be created by verifyTransfer/,
    );
  });

  it('cannot be mutated after verification (the bytes signed are the bytes checked)', () => {
    const v = verifyTransfer(honestRequest(), responseFor(honestTx()));
    const tampered = encodeUnsignedTx(honestTx([out(ATTACKER.address, ONE_ALPH)]));
    assert.throws(() => {
      (v as unknown as { unsignedTx: string }).unsignedTx = tampered;
    }, TypeError);
    assert.notEqual(v.unsignedTx, tampered);
  });

  it("refuses another key than the sender's, without echoing the key", () => {
    const v = verifyTransfer(honestRequest(), responseFor(honestTx()));
    assert.throws(
      () => signVerifiedTransfer(v, ATTACKER.privateKey),
      (e: Error) =>
        e instanceof NotVerifiedError &&
        /not the sender/.test(e.message) &&
        !e.message.includes(ATTACKER.privateKey),
    );
    assert.throws(
      () => signVerifiedTransfer(v, 'zz'),
      (e: Error) => e instanceof NotVerifiedError && !e.message.includes('zz '),
    );
  });
});
