import assert from 'node:assert/strict';
import {
  DUST_ATTO,
  addressFromPublicKey,
  decodeUnsignedTx,
  txIdFromUnsignedTx,
} from '../../src/core/protocol';
import { publicKeyFromPrivateKey, signTxId } from '../../src/core/protocol/keys';
import { deterministicAccount } from './types';
import { control, newSandbox, type Api } from '../testing/helpers';
import type { Sandbox } from '../http/server';

interface Built {
  unsignedTx: string;
  txId: string;
  gasAmount: number;
  gasPrice: string;
  fromGroup: number;
  toGroup: number;
}

const ALPH = 10n ** 18n;

describe('sandbox gateway: ledger and transactions', () => {
  let sb: Sandbox;
  let api: Api;
  const sender = () => sb.accounts[0]!;
  const recipient = deterministicAccount('ledger test recipient', 2);

  before(async () => {
    ({ sb, api } = await newSandbox());
  });
  after(() => sb.close());
  afterEach(() => control(sb, 'POST', '/tamper', { mode: 'none' }));

  const build = (body: Record<string, unknown>) => api.post('/transactions/build', body);
  const transfer = (to: string, amount: bigint, extra: Record<string, unknown> = {}) =>
    build({
      fromPublicKey: sender().publicKey,
      destinations: [{ address: to, attoCoinAmount: String(amount) }],
      ...extra,
    });
  const expect400 = async (res: Response, re?: RegExp) => {
    const text = await res.text();
    assert.equal(res.status, 400, text);
    const detail = (JSON.parse(text) as { detail: string }).detail;
    assert.equal(typeof detail, 'string');
    if (re) assert.match(detail, re);
  };

  it('funds at least one account per group with 1,000,000 ALPH at genesis', async () => {
    for (let g = 0; g < 4; g++) {
      const acc = sb.accounts.find((a) => a.group === g)!;
      assert.equal(addressFromPublicKey(publicKeyFromPrivateKey(acc.privateKey)), acc.address);
      const bal = await api.json<{ balance: string; utxoNum: number; balanceHint: string }>(
        `/addresses/${acc.address}/balance`,
      );
      assert.ok(BigInt(bal.balance) >= 1_000_000n * ALPH, `group ${g}`);
      assert.match(bal.balanceHint, /ALPH$/);
    }
  });

  it('builds real bytes: txId is blake2b of them, groups, default gas price, estimated gas, change to sender', async () => {
    const res = await transfer(recipient.address, 5n * ALPH, { gasAmount: null });
    assert.equal(res.status, 200);
    const b = (await res.json()) as Built;
    assert.equal(b.txId, txIdFromUnsignedTx(b.unsignedTx));
    assert.equal(b.fromGroup, 0);
    assert.equal(b.toGroup, 2);
    assert.equal(b.gasPrice, String(10n ** 11n));
    assert.ok(b.gasAmount >= 20000);
    const d = decodeUnsignedTx(b.unsignedTx);
    assert.equal(d.gasAmount, b.gasAmount);
    assert.equal(d.fixedOutputs[0]?.address, recipient.address);
    assert.equal(d.fixedOutputs[0]?.attoAlphAmount, String(5n * ALPH));
    const change = d.fixedOutputs.find((o) => o.address === sender().address);
    assert.ok(change, 'change goes back to the sender');
    assert.equal(d.inputs[0]?.unlockScript, `00${sender().publicKey}`);
  });

  it('uses the given gas amount and gas price', async () => {
    const b = (await (
      await transfer(recipient.address, ALPH, { gasAmount: 30000, gasPrice: '200000000000' })
    ).json()) as Built;
    assert.equal(b.gasAmount, 30000);
    assert.equal(b.gasPrice, '200000000000');
    assert.equal(decodeUnsignedTx(b.unsignedTx).gasPrice, '200000000000');
  });

  it('rejects dust, insufficient funds, malformed addresses and keys, missing fields (400)', async () => {
    await expect400(await transfer(recipient.address, DUST_ATTO - 1n), /dust|too small/i);
    await expect400(await transfer(recipient.address, 10_000_000n * ALPH), /balance/i);
    await expect400(await transfer('not-an-address', ALPH), /address/i);
    await expect400(
      await build({
        fromPublicKey: 'zz',
        destinations: [{ address: recipient.address, attoCoinAmount: '1' }],
      }),
    );
    await expect400(await build({ fromPublicKey: sender().publicKey.slice(2), destinations: [] }));
    await expect400(
      await build({ destinations: [{ address: recipient.address, attoCoinAmount: String(ALPH) }] }),
      /fromPublicKey/,
    );
    await expect400(await build({ fromPublicKey: sender().publicKey }), /destinations/);
    await expect400(
      await build({ fromPublicKey: sender().publicKey, destinations: [{ address: recipient.address }] }),
      /attoCoinAmount/,
    );
    await expect400(await transfer(recipient.address, ALPH, { gasAmount: 10 }), /gas/i);
    await expect400(await transfer(recipient.address, ALPH, { gasPrice: 'cheap' }));
    const res = await fetch(`${sb.apiUrl}/transactions/build`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sb.apiKeys.pro}` },
      body: '{not json',
    });
    await expect400(res);
  });

  it('submit → MemPooled → Confirmed with block hash, index and growing confirmations', async () => {
    const b = (await (await transfer(recipient.address, 3n * ALPH)).json()) as Built;
    const sub = await api.json<{ txId: string; fromGroup: number; toGroup: number }>('/transactions/submit', {
      unsignedTx: b.unsignedTx,
      signature: signTxId(b.txId, sender().privateKey),
    });
    assert.deepEqual(sub, { txId: b.txId, fromGroup: 0, toGroup: 2 });
    const q = `/transactions/status?txId=${b.txId}&fromGroup=0&toGroup=2`;
    assert.deepEqual(await api.json(q), { type: 'MemPooled' });
    const detailsRes = await api.get(`/transactions/details/${b.txId}`);
    assert.equal(detailsRes.status, 404, 'details exist only once confirmed');
    sb.mine();
    const s1 = await api.json<Record<string, unknown>>(q);
    assert.equal(s1.type, 'Confirmed');
    assert.equal(typeof s1.blockHash, 'string');
    assert.equal(s1.txIndex, 0);
    assert.equal(s1.chainConfirmations, 1);
    assert.equal(s1.fromGroupConfirmations, 1);
    assert.equal(s1.toGroupConfirmations, 1);
    await control(sb, 'POST', '/mine', { blocks: 2 });
    const s3 = await api.json<Record<string, unknown>>(q);
    assert.equal(s3.blockHash, s1.blockHash);
    assert.equal(s3.chainConfirmations, 3);
    assert.equal(s3.fromGroupConfirmations, 3);
    assert.equal(s3.toGroupConfirmations, 3);
    // The recipient sees the funds; the block lists the tx.
    const bal = await api.json<{ balance: string }>(`/addresses/${recipient.address}/balance`);
    assert.equal(bal.balance, String(3n * ALPH));
    const block = await api.json<{
      transactions: { unsigned: { txId: string } }[];
      chainFrom: number;
      chainTo: number;
    }>(`/blockflow/blocks/${String(s1.blockHash)}`);
    assert.equal(block.transactions[0]?.unsigned.txId, b.txId);
    assert.deepEqual([block.chainFrom, block.chainTo], [0, 2]);
    const details = await api.json<
      Record<string, unknown> & { unsigned: { txId: string; fixedOutputs: unknown[] } }
    >(`/transactions/details/${b.txId}?fromGroup=0&toGroup=2`);
    assert.equal(details.unsigned.txId, b.txId);
    assert.deepEqual(details.unsigned, decodeUnsignedTx(b.unsignedTx));
    for (const k of ['contractInputs', 'generatedOutputs', 'inputSignatures', 'scriptSignatures']) {
      assert.ok(Array.isArray(details[k]), k);
    }
    assert.deepEqual(details.inputSignatures, [signTxId(b.txId, sender().privateKey)]);
  });

  it('status: TxNotFound for unknown ids or wrong groups, 400 for malformed ids', async () => {
    assert.deepEqual(await api.json(`/transactions/status?txId=${'ab'.repeat(32)}`), { type: 'TxNotFound' });
    const b = (await (await transfer(recipient.address, ALPH)).json()) as Built;
    await api.json('/transactions/submit', {
      unsignedTx: b.unsignedTx,
      signature: signTxId(b.txId, sender().privateKey),
    });
    assert.deepEqual(await api.json(`/transactions/status?txId=${b.txId}&fromGroup=1&toGroup=2`), {
      type: 'TxNotFound',
    });
    assert.equal((await api.get('/transactions/status?txId=xyz')).status, 400);
    assert.equal((await api.get(`/transactions/status?txId=${b.txId}&fromGroup=9`)).status, 400);
    assert.equal((await api.get(`/transactions/details/${'cd'.repeat(32)}`)).status, 404);
    sb.mine();
  });

  it('rejects bad signatures: wrong key, high-S, wrong length, other tx', async () => {
    const b = (await (await transfer(recipient.address, ALPH)).json()) as Built;
    const other = sb.accounts[1]!;
    await expect400(
      await api.post('/transactions/submit', {
        unsignedTx: b.unsignedTx,
        signature: signTxId(b.txId, other.privateKey),
      }),
      /signature/i,
    );
    const good = signTxId(b.txId, sender().privateKey);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const highS = good.slice(0, 64) + (n - BigInt(`0x${good.slice(64)}`)).toString(16).padStart(64, '0');
    await expect400(
      await api.post('/transactions/submit', { unsignedTx: b.unsignedTx, signature: highS }),
      /signature/i,
    );
    await expect400(
      await api.post('/transactions/submit', { unsignedTx: b.unsignedTx, signature: good.slice(0, 126) }),
    );
    await expect400(
      await api.post('/transactions/submit', {
        unsignedTx: b.unsignedTx,
        signature: signTxId('11'.repeat(32), sender().privateKey),
      }),
    );
    await expect400(await api.post('/transactions/submit', { unsignedTx: b.unsignedTx }), /signature/);
    await expect400(await api.post('/transactions/submit', { unsignedTx: 'zz', signature: good }));
    // Still valid with the right signature.
    assert.equal(
      (await api.post('/transactions/submit', { unsignedTx: b.unsignedTx, signature: good })).status,
      200,
    );
    sb.mine();
  });

  it('rejects double spends, in the mempool and after confirmation', async () => {
    const a = (await (await transfer(recipient.address, ALPH)).json()) as Built;
    const b = (await (await transfer(recipient.address, 2n * ALPH)).json()) as Built;
    // Both builds chose the same input (built before either was submitted).
    assert.equal(
      decodeUnsignedTx(a.unsignedTx).inputs[0]?.outputRef.key,
      decodeUnsignedTx(b.unsignedTx).inputs[0]?.outputRef.key,
    );
    const sign = (t: Built) => ({
      unsignedTx: t.unsignedTx,
      signature: signTxId(t.txId, sender().privateKey),
    });
    assert.equal((await api.post('/transactions/submit', sign(a))).status, 200);
    await expect400(await api.post('/transactions/submit', sign(b)), /double spend/i);
    await expect400(await api.post('/transactions/submit', sign(a)), /exists/i);
    sb.mine();
    await expect400(await api.post('/transactions/submit', sign(b)), /double spend|spent/i);
  });

  it('chains spends through the mempool before a block', async () => {
    const a = (await (await transfer(recipient.address, ALPH)).json()) as Built;
    await api.json('/transactions/submit', {
      unsignedTx: a.unsignedTx,
      signature: signTxId(a.txId, sender().privateKey),
    });
    const b = (await (await transfer(recipient.address, ALPH)).json()) as Built;
    await api.json('/transactions/submit', {
      unsignedTx: b.unsignedTx,
      signature: signTxId(b.txId, sender().privateKey),
    });
    sb.mine();
    for (const t of [a, b]) {
      const s = await api.json<{ type: string }>(`/transactions/status?txId=${t.txId}`);
      assert.equal(s.type, 'Confirmed');
    }
  });

  it('sends tokens with dust ALPH and returns token change', async () => {
    const bal = await api.json<{ tokenBalances: { id: string; amount: string }[] }>(
      `/addresses/${sender().address}/balance`,
    );
    const token = bal.tokenBalances[0]!;
    const res = await build({
      fromPublicKey: sender().publicKey,
      destinations: [
        {
          address: recipient.address,
          attoCoinAmount: String(DUST_ATTO),
          tokens: [{ id: token.id, amount: '7' }],
        },
      ],
    });
    const b = (await res.json()) as Built;
    const d = decodeUnsignedTx(b.unsignedTx);
    assert.deepEqual(d.fixedOutputs[0]?.tokens, [{ id: token.id, amount: '7' }]);
    const tokenChange = d.fixedOutputs.find((o) => o.address === sender().address && o.tokens.length === 1);
    assert.equal(tokenChange?.tokens[0]?.amount, String(BigInt(token.amount) - 7n));
    await api.json('/transactions/submit', {
      unsignedTx: b.unsignedTx,
      signature: signTxId(b.txId, sender().privateKey),
    });
    sb.mine();
    const rb = await api.json<{ tokenBalances?: { id: string; amount: string }[] }>(
      `/addresses/${recipient.address}/balance`,
    );
    assert.deepEqual(rb.tokenBalances, [{ id: token.id, amount: '7' }]);
    await expect400(
      await build({
        fromPublicKey: sender().publicKey,
        destinations: [
          {
            address: recipient.address,
            attoCoinAmount: String(DUST_ATTO),
            tokens: [{ id: 'ab'.repeat(32), amount: '1' }],
          },
        ],
      }),
      /balance/i,
    );
  });

  it('decode-unsigned-tx returns the node shape', async () => {
    const b = (await (await transfer(recipient.address, ALPH)).json()) as Built;
    const d = await api.json<{ fromGroup: number; toGroup: number; unsignedTx: Record<string, unknown> }>(
      '/transactions/decode-unsigned-tx',
      { unsignedTx: b.unsignedTx },
    );
    assert.equal(d.fromGroup, 0);
    assert.equal(d.toGroup, 2);
    assert.deepEqual(d.unsignedTx, decodeUnsignedTx(b.unsignedTx));
    for (const k of ['txId', 'version', 'networkId', 'gasAmount', 'gasPrice', 'inputs', 'fixedOutputs'])
      assert.ok(k in d.unsignedTx, k);
    await expect400(
      await api.post('/transactions/decode-unsigned-tx', { unsignedTx: b.unsignedTx.slice(0, -4) }),
    );
    await expect400(await api.post('/transactions/decode-unsigned-tx', {}));
  });

  it('sweep-address: several unsigned txs for an address with many outputs, each submittable', async () => {
    const many = sb.accounts[4]!;
    const to = deterministicAccount('sweep target', 0);
    const r = await api.json<{
      unsignedTxs: { txId: string; unsignedTx: string; gasAmount: number; gasPrice: string }[];
      fromGroup: number;
      toGroup: number;
    }>('/transactions/sweep-address/build', { fromPublicKey: many.publicKey, toAddress: to.address });
    assert.ok(r.unsignedTxs.length >= 2, `got ${r.unsignedTxs.length}`);
    let total = 0n;
    for (const t of r.unsignedTxs) {
      assert.equal(t.txId, txIdFromUnsignedTx(t.unsignedTx));
      const d = decodeUnsignedTx(t.unsignedTx);
      assert.ok(d.fixedOutputs.every((o) => o.address === to.address));
      total += d.fixedOutputs.reduce((s, o) => s + BigInt(o.attoAlphAmount), 0n);
      await api.json('/transactions/submit', {
        unsignedTx: t.unsignedTx,
        signature: signTxId(t.txId, many.privateKey),
      });
    }
    sb.mine();
    const after = await api.json<{ balance: string; utxoNum: number }>(`/addresses/${many.address}/balance`);
    assert.equal(after.balance, '0');
    const got = await api.json<{ balance: string }>(`/addresses/${to.address}/balance`);
    assert.equal(got.balance, String(total));
    await expect400(
      await api.post('/transactions/sweep-address/build', {
        fromPublicKey: many.publicKey,
        toAddress: 'bad',
      }),
    );
  });

  describe('tampering mode', () => {
    const honest = () => transfer(recipient.address, 2n * ALPH);

    it('recipient: another address, consistent txId', async () => {
      await control(sb, 'POST', '/tamper', { mode: 'recipient' });
      const b = (await (await honest()).json()) as Built;
      const d = decodeUnsignedTx(b.unsignedTx);
      assert.notEqual(d.fixedOutputs[0]?.address, recipient.address);
      assert.equal(b.txId, txIdFromUnsignedTx(b.unsignedTx));
    });

    it('amount: another amount', async () => {
      await control(sb, 'POST', '/tamper', { mode: 'amount' });
      const d = decodeUnsignedTx(((await (await honest()).json()) as Built).unsignedTx);
      assert.equal(d.fixedOutputs[0]?.address, recipient.address);
      assert.notEqual(d.fixedOutputs[0]?.attoAlphAmount, String(2n * ALPH));
    });

    it('extra-output: an output nobody asked for', async () => {
      await control(sb, 'POST', '/tamper', { mode: 'extra-output' });
      const d = decodeUnsignedTx(((await (await honest()).json()) as Built).unsignedTx);
      const unexpected = d.fixedOutputs.filter(
        (o) => o.address !== recipient.address && o.address !== sender().address,
      );
      assert.equal(unexpected.length, 1);
    });

    it('txid: a txId that is not the hash of the bytes', async () => {
      await control(sb, 'POST', '/tamper', { mode: 'txid' });
      const b = (await (await honest()).json()) as Built;
      assert.notEqual(b.txId, txIdFromUnsignedTx(b.unsignedTx));
      assert.equal(decodeUnsignedTx(b.unsignedTx).fixedOutputs[0]?.address, recipient.address);
    });

    it('decode-lies: the decode endpoint describes the request while the bytes differ', async () => {
      await control(sb, 'POST', '/tamper', { mode: 'decode-lies' });
      const b = (await (await honest()).json()) as Built;
      assert.equal(b.txId, txIdFromUnsignedTx(b.unsignedTx));
      const local = decodeUnsignedTx(b.unsignedTx);
      assert.notEqual(local.fixedOutputs[0]?.address, recipient.address);
      const remote = await api.json<{ unsignedTx: { txId: string; fixedOutputs: { address: string }[] } }>(
        '/transactions/decode-unsigned-tx',
        { unsignedTx: b.unsignedTx },
      );
      assert.equal(remote.unsignedTx.fixedOutputs[0]?.address, recipient.address);
      assert.equal(remote.unsignedTx.txId, b.txId);
    });

    it('none: honest again; unknown modes are refused', async () => {
      await control(sb, 'POST', '/tamper', { mode: 'none' });
      const d = decodeUnsignedTx(((await (await honest()).json()) as Built).unsignedTx);
      assert.equal(d.fixedOutputs[0]?.address, recipient.address);
      await assert.rejects(control(sb, 'POST', '/tamper', { mode: 'evil' }));
    });
  });
});
