import { strict as assert } from 'node:assert';
import {
  DEVNET_TEST_ADDRESS,
  DEVNET_TEST_KEY_WARNING,
  DEVNET_TEST_KEY_WORD,
  DEVNET_TEST_PRIVATE_KEY,
  devnetTestKeyChosen,
  devnetTestKeyOffered,
} from '../../../src/core/signing/devnetTestKey';
import { addressFromPublicKey } from '../../../src/core/protocol';
import { publicKeyFromPrivateKey } from '../../../src/core/protocol/keys';
import { deriveKeyFromMnemonic } from '../../../src/core/protocol/mnemonic';
import { DEFAULT_CONFIGURATION_VALUES } from '@alephium/cli';

// The devnet's test mnemonic, as @alephium/cli's scripts/start-devnet.js and the devnet user.conf name it.
const DEVNET_MNEMONIC =
  'vault alarm sad mass witness property virus style good flower rice alpha viable evidence run glare pretty scout evil judge enroll refuse another lava';

describe("the CLI's default devnet test key (offered on devnet only)", () => {
  it('is never offered for a mainnet or testnet profile, however the name is spelled or whatever the node says', () => {
    for (const network of ['mainnet', 'testnet', 'Mainnet', ' MAINNET ', 'TestNet', 'testnet ']) {
      for (const nodeId of [undefined, 0, 1, 4, 7])
        assert.equal(devnetTestKeyOffered(network, nodeId), false, `${network} / node ${String(nodeId)}`);
    }
  });

  it('is never offered when the node was seen on mainnet or testnet, nor without a profile', () => {
    for (const network of ['devnet', 'local', 'mydevnet']) {
      assert.equal(devnetTestKeyOffered(network, 0), false, `${network} on mainnet's id`);
      assert.equal(devnetTestKeyOffered(network, 1), false, `${network} on testnet's id`);
    }
    assert.equal(devnetTestKeyOffered(undefined), false);
  });

  it('is offered for a devnet (or any local network) profile', () => {
    assert.equal(devnetTestKeyOffered('devnet'), true);
    assert.equal(devnetTestKeyOffered('devnet', 4), true);
    assert.equal(devnetTestKeyOffered('local', 1337), true);
  });

  it("is @alephium/cli's default devnet key, and its address is the devnet's first genesis allocation", () => {
    // Read from the installed CLI, so a new CLI default is noticed here.
    assert.deepEqual(DEFAULT_CONFIGURATION_VALUES.networks.devnet.privateKeys, [DEVNET_TEST_PRIVATE_KEY]);
    assert.equal(DEFAULT_CONFIGURATION_VALUES.networks.devnet.networkId, 4);
    assert.equal(deriveKeyFromMnemonic(DEVNET_MNEMONIC, 0).privateKey, DEVNET_TEST_PRIVATE_KEY);
    assert.equal(addressFromPublicKey(publicKeyFromPrivateKey(DEVNET_TEST_PRIVATE_KEY)), DEVNET_TEST_ADDRESS);
  });

  it('the word typed into Import Signer Key takes the key on a devnet profile, and is only a bad key elsewhere', () => {
    assert.equal(devnetTestKeyChosen(DEVNET_TEST_KEY_WORD, 'devnet'), DEVNET_TEST_PRIVATE_KEY);
    assert.equal(devnetTestKeyChosen(' DevNet ', 'local'), DEVNET_TEST_PRIVATE_KEY);
    for (const network of ['mainnet', 'testnet', 'Mainnet', undefined])
      assert.equal(devnetTestKeyChosen(DEVNET_TEST_KEY_WORD, network), undefined, String(network));
    assert.equal(devnetTestKeyChosen('devnets', 'devnet'), undefined);
    assert.equal(devnetTestKeyChosen(DEVNET_TEST_KEY_WORD, 'devnet', 0), undefined, 'a node seen on mainnet');
  });

  it('says what it is wherever it is offered', () => {
    assert.match(DEVNET_TEST_KEY_WARNING, /public test key/);
    assert.match(DEVNET_TEST_KEY_WARNING, /anyone can spend from it/);
    assert.match(DEVNET_TEST_KEY_WARNING, /devnet only/);
  });
});
