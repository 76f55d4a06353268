import * as vscode from 'vscode';
import type { Redactor } from './core/util/redact';

/**
 * The only place secrets are read or written: VS Code's SecretStorage (the OS keychain on desktop).
 * Every value read or stored is registered with the redactor, so it is masked in every log and error.
 */
const API_KEY_PREFIX = 'alephium.apiKey.';
const SIGNER_KEY = 'alephium.signerKey';

export class SecretStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the profile name whose API key changed, or `signer`. */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly storage: vscode.SecretStorage,
    private readonly redactor: Redactor,
  ) {
    // Other windows change the same storage; follow them.
    this.subscription = storage.onDidChange((e) => {
      if (e.key === SIGNER_KEY) this.changed.fire('signer');
      else if (e.key.startsWith(API_KEY_PREFIX)) this.changed.fire(e.key.slice(API_KEY_PREFIX.length));
    });
  }

  async getApiKey(profileName: string): Promise<string | undefined> {
    const value = await this.storage.get(API_KEY_PREFIX + profileName);
    this.redactor.addSecret(value);
    return value || undefined;
  }

  async setApiKey(profileName: string, key: string): Promise<void> {
    this.redactor.addSecret(key);
    await this.storage.store(API_KEY_PREFIX + profileName, key);
  }

  async deleteApiKey(profileName: string): Promise<void> {
    await this.storage.delete(API_KEY_PREFIX + profileName);
  }

  /** The signer's private key (hex). Callers keep it only for the duration of one signature. */
  async getSignerKey(): Promise<string | undefined> {
    const value = await this.storage.get(SIGNER_KEY);
    this.redactor.addSecret(value);
    return value || undefined;
  }

  async setSignerKey(privateKeyHex: string): Promise<void> {
    this.redactor.addSecret(privateKeyHex);
    await this.storage.store(SIGNER_KEY, privateKeyHex);
  }

  async deleteSignerKey(): Promise<void> {
    await this.storage.delete(SIGNER_KEY);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
