/**
 * An independent client agrees with the sandbox: @alephium/web3 decodes its unsigned txs to the same
 * txId and outputs, its signer's signatures are accepted, and the tx confirms.
 */
import assert from 'node:assert/strict';
import {
  addressFromPublicKey,
  binToHex,
  codec,
  groupOfAddress,
  hexToBinUnsafe,
  NodeProvider,
  transactionSign,
  transactionVerifySignature,
} from '@alephium/web3';
import { deterministicAccount } from './types';
import { control, newSandbox, type Api } from '../testing/helpers';
import { TestWallet } from '../testing/testWallet';
import type { Sandbox } from '../http/server';

describe('sandbox gateway vs @alephium/web3', () => {
  let sb: Sandbox;
  let api: Api;
  let key: string;

  before(async () => {
    ({ sb, api, key } = await newSandbox());
  });
  after(() => sb.close());

  it('genesis accounts: the SDK derives the same addresses and groups', () => {
    for (const a of sb.accounts) {
      assert.equal(addressFromPublicKey(a.publicKey), a.address);
      assert.equal(groupOfAddress(a.address), a.group);
    }
  });

  it('SDK decodes the built tx with the same txId, signs it, the sandbox confirms it', async () => {
    const from = sb.accounts[1]!;
    const to = deterministicAccount('sdk recipient', 3);
    const build = await api.json<{
      unsignedTx: string;
      txId: string;
      fromGroup: number;
      toGroup: number;
      gasAmount: number;
    }>('/transactions/build', {
      fromPublicKey: from.publicKey,
      destinations: [{ address: to.address, attoCoinAmount: '1234000000000000000' }],
    });
    const decoded = codec.unsignedTxCodec.decodeApiUnsignedTx(hexToBinUnsafe(build.unsignedTx));
    assert.equal(decoded.txId, build.txId);
    assert.equal(decoded.fixedOutputs[0]?.address, to.address);
    assert.equal(decoded.fixedOutputs[0]?.attoAlphAmount, '1234000000000000000');
    assert.equal(decoded.gasAmount, build.gasAmount);
    assert.equal(binToHex(codec.unsignedTxCodec.encodeApiUnsignedTx(decoded)), build.unsignedTx);
    // The sandbox's decode endpoint agrees with the SDK field by field.
    const remote = await api.json<{ unsignedTx: unknown }>('/transactions/decode-unsigned-tx', {
      unsignedTx: build.unsignedTx,
    });
    assert.deepEqual(remote.unsignedTx, JSON.parse(JSON.stringify(decoded)));
    const signature = transactionSign(build.txId, from.privateKey);
    assert.ok(transactionVerifySignature(build.txId, from.publicKey, signature));
    const sub = await api.json<{ txId: string }>('/transactions/submit', {
      unsignedTx: build.unsignedTx,
      signature,
    });
    assert.equal(sub.txId, build.txId);
    await control(sb, 'POST', '/mine');
    const status = await api.json<{ type: string; chainConfirmations: number }>(
      `/transactions/status?txId=${build.txId}&fromGroup=${build.fromGroup}&toGroup=${build.toGroup}`,
    );
    assert.equal(status.type, 'Confirmed');
    assert.equal(status.chainConfirmations, 1);
  });

  it("the SDK's own wallet flow (signAndSubmitTransferTx, attoAlphAmount) signs, submits and confirms", async () => {
    const from = sb.accounts[2]!;
    const to = deterministicAccount('sdk wallet recipient', 1);
    // The gateway's Bearer key travels in a fetch wrapper; everything else is the SDK's own request.
    const bearerFetch: typeof fetch = (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${key}` },
      });
    const wallet = new TestWallet(new NodeProvider(sb.apiUrl, undefined, bearerFetch), {
      address: from.address,
      publicKey: from.publicKey,
      privateKey: from.privateKey,
      group: from.group,
    });
    const result = await wallet.signAndSubmitTransferTx({
      signerAddress: from.address,
      destinations: [{ address: to.address, attoAlphAmount: 2_000_000_000_000_000_000n }],
    });
    const build = sb.requests.find(
      (r) => r.path.endsWith('/transactions/build') && r.body.includes(from.publicKey),
    );
    assert.ok(build, 'the SDK built through the sandbox');
    assert.match(build.body, /"attoAlphAmount"/, "the SDK sends the real node's field name");
    await control(sb, 'POST', '/mine');
    const status = await api.json<{ type: string }>(
      `/transactions/status?txId=${result.txId}&fromGroup=${result.fromGroup}&toGroup=${result.toGroup}`,
    );
    assert.equal(status.type, 'Confirmed');
  });

  it('SDK decodes multi-input (SameAsPrevious) txs from sweep with the same txIds', async () => {
    const many = sb.accounts[4]!;
    const r = await api.json<{ unsignedTxs: { txId: string; unsignedTx: string }[] }>(
      '/transactions/sweep-address/build',
      {
        fromPublicKey: many.publicKey,
        toAddress: sb.accounts[0]!.address,
      },
    );
    for (const t of r.unsignedTxs) {
      const d = codec.unsignedTxCodec.decodeApiUnsignedTx(hexToBinUnsafe(t.unsignedTx));
      assert.equal(d.txId, t.txId);
      assert.ok(d.inputs.length > 1);
    }
  });
});
