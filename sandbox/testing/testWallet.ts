/**
 * The SDK's own signer flow over one sandbox account (what PrivateKeyWallet does, without the extra
 * package): the SDK builds the request body, signs the txId it is given and submits, all through its
 * NodeProvider. TEST KEYS ONLY.
 */
import { SignerProviderSimple, transactionSign, type Account, type NodeProvider } from '@alephium/web3';

export class TestWallet extends SignerProviderSimple {
  constructor(
    readonly nodeProvider: NodeProvider,
    private readonly account: { address: string; publicKey: string; privateKey: string; group: number },
  ) {
    super();
  }
  get explorerProvider(): undefined {
    return undefined;
  }
  protected unsafeGetSelectedAccount(): Promise<Account> {
    const { address, publicKey, group } = this.account;
    return Promise.resolve({ address, publicKey, group, keyType: 'default' });
  }
  protected getPublicKey(): Promise<string> {
    return Promise.resolve(this.account.publicKey);
  }
  signRaw(_signer: string, hex: string): Promise<string> {
    return Promise.resolve(transactionSign(hex, this.account.privateKey));
  }
}
