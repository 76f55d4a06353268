import { strict as assert } from 'node:assert';
import {
  addressFromPublicKey,
  decodeUnsignedTx,
  encodeUnsignedTx,
  p2pkhUnlockScript,
  shortTxId,
} from '../../../src/core/protocol';
import { publicKeyFromPrivateKey } from '../../../src/core/protocol/keys';
import type { TxDetails } from '../../../src/core/gateway';
import { checkUnsignedTx, normalizeUnsignedTxHex } from '../../../src/core/signing/decodeCheck';
import {
  balanceChanges,
  buildTxDetailsModel,
  messageText,
  statusOfGateway,
  statusOfTracked,
  trackedRowsChangeAt,
  tokenIdsOf,
  trackedTxView,
} from '../../../src/core/transactions/txDetailsModel';

const senderPub = publicKeyFromPrivateKey('11'.repeat(32));
const sender = addressFromPublicKey(senderPub);
const recipient = addressFromPublicKey(publicKeyFromPrivateKey('22'.repeat(32)));
const TOKEN = 'ab'.repeat(32);
const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
const hostileHex = Buffer.from(hostile, 'utf8').toString('hex');

function transfer(message = '') {
  const hex = encodeUnsignedTx({
    version: 0,
    networkId: 4,
    gasAmount: 20000,
    gasPrice: '100000000000',
    inputs: [
      { outputRef: { hint: 1, key: '01'.repeat(32) }, unlockScript: p2pkhUnlockScript(senderPub) },
      { outputRef: { hint: 1, key: '02'.repeat(32) }, unlockScript: '03' },
    ],
    fixedOutputs: [
      {
        attoAlphAmount: '1500000000000000000',
        address: recipient,
        tokens: [{ id: TOKEN, amount: '7' }],
        lockTime: 0,
        message,
      },
      { attoAlphAmount: '3000000000000000000', address: sender, tokens: [], lockTime: 0, message: '' },
    ],
  });
  return { hex, decoded: decodeUnsignedTx(hex) };
}

describe('txDetailsModel: token names beside the raw amounts', () => {
  it('gives outputs and balance changes the symbol and decimal amount (signed), keeping raw and id', () => {
    const { decoded } = transfer();
    assert.deepEqual(tokenIdsOf(decoded), [TOKEN]);
    const names = new Map([
      [TOKEN, { symbol: 'SBX', name: 'Sandbox', decimals: 1, source: 'contract' as const }],
    ]);
    const model = buildTxDetailsModel({ txId: decoded.txId, now: 0, unsigned: decoded, tokens: names });
    assert.deepEqual(model.outputs[0]!.tokens, [
      { id: TOKEN, amount: '7', symbol: 'SBX', decimalAmount: '0.7', source: 'contract' },
    ]);
    const byAddress = new Map(model.balanceChanges.map((b) => [b.address, b.tokens]));
    assert.deepEqual(byAddress.get(recipient), [
      { id: TOKEN, amount: '+7', symbol: 'SBX', decimalAmount: '+0.7', source: 'contract' },
    ]);
    assert.deepEqual(byAddress.get(sender), [
      { id: TOKEN, amount: '-7', symbol: 'SBX', decimalAmount: '-0.7', source: 'contract' },
    ]);
  });

  it('an unknown token stays raw, by its whole id', () => {
    const { decoded } = transfer();
    const model = buildTxDetailsModel({
      txId: decoded.txId,
      now: 0,
      unsigned: decoded,
      tokens: new Map([[TOKEN, undefined]]),
    });
    assert.deepEqual(model.outputs[0]!.tokens, [{ id: TOKEN, amount: '7' }]);
  });
});

describe('txDetailsModel: what the details webview and the Transactions view show', () => {
  it('derives exact per-address balance changes for a single spender (ALPH conserved, fee included)', () => {
    const { decoded } = transfer();
    const model = buildTxDetailsModel({ txId: decoded.txId, now: 0, unsigned: decoded });
    assert.equal(model.gas?.fee.atto, '2000000000000000');
    assert.equal(model.gas?.fee.alph, '0.002');
    assert.deepEqual(
      model.balanceChanges.map((b) => [b.address, b.alph, b.atto, b.tokens.map((t) => t.amount)]),
      [
        [sender, '-1.502', '-1502000000000000000', ['-7']],
        [recipient, '+1.5', '+1500000000000000000', ['+7']],
      ],
    );
    assert.equal(model.balanceNote, undefined);
    assert.equal(model.inputs[0]?.address, sender);
    assert.equal(model.inputs[1]?.unlockType, 'SameAsPrevious');
    assert.equal(model.inputs[1]?.address, sender, 'SameAsPrevious inherits the previous spender');
    assert.equal(model.outputs[1]?.isChange, true);
    assert.equal(model.outputs[0]?.isChange, false);
  });

  it('shows credits only, with a note, when contract inputs hide amounts', () => {
    const out = [{ address: recipient, attoAlphAmount: '5', tokens: [] }];
    const r = balanceChanges(out, new Set([sender]), 1n, 1);
    assert.deepEqual(
      r.changes.map((c) => c.alph),
      ['+0.000000000000000005'],
    );
    assert.match(r.note ?? '', /contract inputs/);
    assert.match(balanceChanges(out, undefined, 1n, 0).note ?? '', /do not reveal their owner/);
  });

  it('keeps hostile message text as plain data and decodes printable UTF-8 only', () => {
    const { decoded } = transfer(hostileHex);
    const model = buildTxDetailsModel({ txId: decoded.txId, now: 0, unsigned: decoded });
    assert.equal(model.outputs[0]?.messageHex, hostileHex);
    assert.equal(model.outputs[0]?.messageText, hostile);
    assert.equal(messageText('00ff'), undefined, 'invalid UTF-8 is not shown as text');
    assert.equal(messageText('0001'), undefined, 'control characters are not shown as text');
    assert.equal(messageText('68690a'), 'hi\n');
  });

  it('a script that failed in its block is Failed with its block and confirmations, not Confirmed', () => {
    const { decoded } = transfer();
    const block = 'dd'.repeat(32);
    const status = {
      type: 'Confirmed',
      blockHash: block,
      txIndex: 0,
      chainConfirmations: 7,
      fromGroupConfirmations: 7,
      toGroupConfirmations: 7,
    } as const;
    const details = (ok: boolean | undefined) =>
      ({
        unsigned: decoded,
        ...(ok !== undefined ? { scriptExecutionOk: ok } : {}),
        contractInputs: [],
        generatedOutputs: [],
        inputSignatures: [],
        scriptSignatures: [],
      }) as unknown as TxDetails;
    const failed = buildTxDetailsModel({
      txId: decoded.txId,
      now: 0,
      status,
      requiredConfirmations: 1,
      details: details(false),
    });
    assert.equal(failed.status.kind, 'failed');
    assert.equal(
      failed.status.text,
      `Failed: script failed: included in block ${block}, but its script did not run to the end, so nothing it did was kept and only its gas was charged (7 confirmations)`,
    );
    assert.equal(failed.status.blockHash, block);
    assert.equal(failed.scriptExecutionOk, false);
    for (const ok of [true, undefined]) {
      const model = buildTxDetailsModel({
        txId: decoded.txId,
        now: 0,
        status,
        requiredConfirmations: 1,
        details: details(ok),
      });
      assert.equal(model.status.kind, 'confirmed', `scriptExecutionOk ${String(ok)}`);
    }
  });

  it('prefers confirmed details, lists signatures, generated outputs and decoded or raw events', () => {
    const { decoded } = transfer();
    const details = {
      unsigned: decoded,
      scriptExecutionOk: true,
      contractInputs: [],
      generatedOutputs: [],
      inputSignatures: ['aa'.repeat(64)],
      scriptSignatures: [],
    } as unknown as TxDetails;
    const events = [
      {
        blockHash: 'cc'.repeat(32),
        contractAddress: 'contract',
        eventIndex: 0,
        fields: [{ type: 'U256', value: '3' }],
      },
      {
        blockHash: 'cc'.repeat(32),
        contractAddress: 'contract',
        eventIndex: 1,
        fields: [{ type: 'Bool', value: true }],
      },
    ];
    const model = buildTxDetailsModel({
      txId: decoded.txId,
      now: 0,
      status: {
        type: 'Confirmed',
        blockHash: 'cc'.repeat(32),
        txIndex: 0,
        chainConfirmations: 3,
        fromGroupConfirmations: 2,
        toGroupConfirmations: 4,
      },
      requiredConfirmations: 1,
      details,
      events: events,
      decodeEvent: (e) =>
        e.eventIndex === 0
          ? { name: 'Counted', fields: [{ name: 'n', type: 'U256', value: '3' }] }
          : undefined,
    });
    assert.equal(model.status.kind, 'confirmed');
    assert.equal(model.status.confirmations, 2, 'the least confirmed chain counts');
    assert.deepEqual(model.inputSignatures, ['aa'.repeat(64)]);
    assert.equal(model.events[0]?.name, 'Counted');
    assert.equal(model.events[0]?.fields[0]?.name, 'n');
    assert.equal(model.events[1]?.name, 'Event #1');
    assert.equal(model.events[1]?.fields[0]?.value, 'true');
    assert.match(model.raw, /"inputSignatures"/);
  });

  it('says inputs and outputs come later for a pending tx without bytes', () => {
    const model = buildTxDetailsModel({ txId: 'ab'.repeat(32), now: 0, status: { type: 'MemPooled' } });
    assert.equal(model.status.kind, 'mempool');
    assert.match(model.notes.join(' '), /appear once the transaction is in a block/);
  });

  it('words tracked states: grace countdown, n/N, confirmed, failed with reason, gave up', () => {
    assert.match(
      statusOfTracked({ kind: 'pending-not-found', graceEndsAt: 10_000 }, undefined, 1, 4_000).text,
      /in 6 s/,
    );
    assert.equal(
      statusOfTracked({ kind: 'confirmed', confirmations: 1, required: 3, blockHash: 'b' }, undefined, 3, 0)
        .text,
      'Confirmations 1/3',
    );
    assert.equal(
      statusOfTracked(undefined, { kind: 'final', confirmations: 2, blockHash: 'b' }, 1, 0).text,
      'Confirmed (2 confirmations)',
    );
    assert.equal(
      statusOfTracked(undefined, { kind: 'failed', reason: 'not found: x' }, 1, 0).text,
      'Failed: not found: x',
    );
    assert.match(
      statusOfTracked(undefined, { kind: 'gave-up', reason: 'r' }, 1, 0).text,
      /Tracking stopped: r/,
    );
    assert.equal(statusOfGateway({ type: 'TxNotFound' }, 1).kind, 'not-found-yet');
    assert.equal(
      statusOfGateway({ type: 'Unknown', rawType: 'Weird', raw: {} } as never, 1).text,
      "Unknown status 'Weird'",
    );
  });

  it('labels tree rows with the record label or a short txId, and marks finished ones inactive', () => {
    const txId = 'ab'.repeat(32);
    const view = trackedTxView(
      {
        version: 1,
        txId,
        submittedAt: 0,
        requiredConfirmations: 1,
        outcome: { kind: 'final', confirmations: 1, blockHash: 'b' },
      },
      0,
    );
    assert.equal(view.label, shortTxId(txId));
    assert.equal(view.description, 'Confirmed (1 confirmation)');
    assert.equal(view.active, false);
  });

  it("says how old a finished row's confirmation count is (tracking no longer polls it), and when that moves", () => {
    const record = {
      version: 1 as const,
      txId: 'ab'.repeat(32),
      submittedAt: 0,
      requiredConfirmations: 1,
      lastSeenAt: 1_000,
      state: { kind: 'final' as const, confirmations: 4, blockHash: 'b' },
      outcome: { kind: 'final' as const, confirmations: 4, blockHash: 'b' },
    };
    assert.equal(trackedTxView(record, 30_000).description, 'Confirmed (4 confirmations)');
    // The row said "Confirmed (4 confirmations)" for good while the details page said 13.
    assert.equal(
      trackedTxView(record, 1_000 + 12 * 60_000).description,
      'Confirmed (4 confirmations, as of 12 min ago)',
    );
    assert.equal(trackedRowsChangeAt([record], 30_000), 61_000);
    assert.equal(trackedRowsChangeAt([record], 1_000 + 12 * 60_000 + 1), 1_000 + 13 * 60_000);
    const pending = { ...record, outcome: undefined, state: { kind: 'mempool' as const } };
    assert.equal(trackedRowsChangeAt([pending], 30_000), undefined, 'a polled row is fresh by itself');
  });
});

describe('decodeCheck: a pasted unsigned tx, and whether the gateway describes the same bytes', () => {
  it('recomputes txId and fee, and accepts a gateway decoding that re-encodes to the bytes', () => {
    const { hex, decoded } = transfer();
    const check = checkUnsignedTx(`  0x${hex.toUpperCase()}\n`, { unsignedTx: decoded });
    assert.equal(check.txId, decoded.txId);
    assert.equal(check.fee, 2000000000000000n);
    assert.equal(check.gateway, 'agrees');
    assert.deepEqual(check.groups, { fromGroup: check.groups?.fromGroup, toGroup: check.groups?.toGroup });
  });

  it('names a gateway that describes other bytes (a lying decode)', () => {
    const { hex, decoded } = transfer();
    const lie = {
      ...decoded,
      fixedOutputs: decoded.fixedOutputs.map((o, i) => (i === 0 ? { ...o, attoAlphAmount: '1' } : o)),
    };
    const check = checkUnsignedTx(hex, { unsignedTx: lie });
    assert.equal(check.gateway, 'disagrees');
    assert.match(check.problems.join(' '), /different bytes/);
    assert.equal(checkUnsignedTx(hex, new Error('503')).gateway, 'unavailable');
  });

  it('normalises pasted hex and rejects garbage with a decoding error', () => {
    assert.equal(normalizeUnsignedTxHex('"0xAB cd"'), 'abcd');
    assert.throws(() => checkUnsignedTx('00'), /./);
  });
});
