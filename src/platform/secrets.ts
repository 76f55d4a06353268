import * as vscode from 'vscode';
import { keyDerivation } from './lazyEngine';
import type { Redactor } from '../core/util/redact';
import {
  decodeStoredKey,
  encodeBoundKey,
  keyForOrigin,
  type KeyRequestContext,
  type StoredKey,
} from '../core/gateway/keyBinding';
import { StorageKeys } from '../constants';
import { SECRETS_NOT_KEPT, nextGeneration, secretsKept } from '../core/util/secretPersistence';

/**
 * The only place secrets are read or written: VS Code's SecretStorage (the OS keychain on desktop).
 * Every value read or stored is registered with the redactor, so it is masked in every log and error.
 */
const API_KEY_PREFIX = StorageKeys.apiKeyPrefix;
const SIGNER_KEY = StorageKeys.signerKey;
const SIGNER_PUBLIC_KEY = StorageKeys.signerPublicKey;

const GENERATION_KEY = StorageKeys.secretsGeneration;

/** Where a store's generation is recorded beside SecretStorage, and how the person is told it is not kept. */
export interface SecretPersistence {
  readonly state: vscode.Memento;
  readonly tell: (text: string) => void;
}

export class SecretStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the profile name whose API key changed, or `signer`. */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private told = false;

  constructor(
    private readonly storage: vscode.SecretStorage,
    private readonly redactor: Redactor,
    private readonly persistence?: SecretPersistence,
  ) {
    // Other windows change the same storage; follow them.
    this.subscription = storage.onDidChange((e) => {
      if (e.key === SIGNER_KEY || e.key === SIGNER_PUBLIC_KEY) this.changed.fire('signer');
      else if (e.key.startsWith(API_KEY_PREFIX)) this.changed.fire(e.key.slice(API_KEY_PREFIX.length));
    });
  }

  /** The stored key of a profile, wherever it is bound (for "is there a key" questions). */
  async getApiKey(profileName: string): Promise<string | undefined> {
    return (await this.readApiKey(profileName))?.key;
  }

  /**
   * The key of a profile for requests to `origin` (`{baseUrl}/{slug}`): only when it was entered for
   * that origin (the rule is core/gateway/keyBinding's `keyForOrigin`); otherwise `boundTo` says where it
   * belongs, or `unbound` that it was stored without an origin and waits for the user's consent. A key
   * stored without an origin for a profile of the user's own settings is bound to it at once.
   */
  async apiKeyFor(
    profileName: string,
    origin: string,
    context: KeyRequestContext = {},
  ): Promise<{ key?: string; boundTo?: string; unbound?: boolean }> {
    const stored = await this.readApiKey(profileName);
    const { key, boundTo, bindNow, unbound } = keyForOrigin(stored, origin, context);
    if (bindNow && key) await this.setApiKey(profileName, key, origin);
    return { ...(key ? { key } : {}), ...(boundTo ? { boundTo } : {}), ...(unbound ? { unbound } : {}) };
  }

  /**
   * Binds the stored key of a profile to `to`, once the user allowed it in a modal naming that origin.
   * Only the key that was asked about moves: one still bound to `from` (undefined: stored without an
   * origin); if it was replaced or moved meanwhile, nothing happens and this resolves false.
   */
  async moveApiKey(profileName: string, from: string | undefined, to: string): Promise<boolean> {
    const stored = await this.readApiKey(profileName);
    if (!stored || stored.origin !== from) return false;
    await this.setApiKey(profileName, stored.key, to);
    return true;
  }

  async setApiKey(profileName: string, key: string, origin?: string): Promise<void> {
    this.redactor.addSecret(key);
    await this.store([
      API_KEY_PREFIX + profileName,
      origin === undefined ? key : encodeBoundKey(key, origin),
    ]);
  }

  private async readApiKey(profileName: string): Promise<StoredKey | undefined> {
    const stored = decodeStoredKey(await this.storage.get(API_KEY_PREFIX + profileName));
    this.redactor.addSecret(stored?.key);
    return stored;
  }

  async deleteApiKey(profileName: string): Promise<void> {
    await this.storage.delete(API_KEY_PREFIX + profileName);
  }

  /**
   * The signer's private key (hex). Only the signer calls this, after the user confirmed what it signs
   * (core/signing/signingPath.ts), and keeps it for that one signature.
   */
  async getSignerKey(): Promise<string | undefined> {
    const value = await this.storage.get(SIGNER_KEY);
    this.redactor.addSecret(value);
    return value || undefined;
  }

  /**
   * The signer's public key (hex, compressed), for building transactions and showing the address: read
   * without touching the private key. A key stored by a version that did not keep its public key has it
   * derived once, here, and stored, so this is the only read of a private key outside the signer.
   */
  async getSignerPublicKey(): Promise<string | undefined> {
    const stored = await this.storage.get(SIGNER_PUBLIC_KEY);
    if (stored) return stored;
    const legacy = await this.getSignerKey();
    if (!legacy) return undefined;
    const publicKey = (await keyDerivation()).publicKeyFromPrivateKey(legacy);
    await this.store([SIGNER_PUBLIC_KEY, publicKey]);
    return publicKey;
  }

  async setSignerKey(privateKeyHex: string): Promise<void> {
    this.redactor.addSecret(privateKeyHex);
    const publicKey = (await keyDerivation()).publicKeyFromPrivateKey(privateKeyHex);
    await this.store([SIGNER_KEY, privateKeyHex], [SIGNER_PUBLIC_KEY, publicKey]);
  }

  async deleteSignerKey(): Promise<void> {
    await this.storage.delete(SIGNER_KEY);
    await this.storage.delete(SIGNER_PUBLIC_KEY);
  }

  /**
   * Stores secrets, then bumps the generation once (core/util/secretPersistence.ts). A store the
   * workbench refuses while the value still reads back (an in-memory SecretStorage) lasts only for this
   * window: said once; a store that did not take at all fails as before.
   */
  private async store(...entries: readonly (readonly [key: string, value: string])[]): Promise<void> {
    let refused = false;
    for (const [key, value] of entries) {
      try {
        await this.storage.store(key, value);
      } catch (error) {
        if ((await this.storage.get(key).then(undefined, () => undefined)) !== value) throw error;
        refused = true;
      }
    }
    if (refused) return this.tellNotKept();
    try {
      const generation = nextGeneration(this.persistence?.state.get(GENERATION_KEY));
      await this.storage.store(GENERATION_KEY, String(generation));
      await this.persistence?.state.update(GENERATION_KEY, generation);
    } catch {
      this.tellNotKept();
    }
  }

  /** After a reload: SecretStorage older than the last store means the newer secrets were not kept. */
  async checkKept(): Promise<boolean> {
    if (!this.persistence) return true;
    const stored = await this.storage.get(GENERATION_KEY).then(undefined, () => undefined);
    const kept = secretsKept(this.persistence.state.get(GENERATION_KEY), stored);
    if (!kept) this.tellNotKept();
    return kept;
  }

  private tellNotKept(): void {
    if (this.told || !this.persistence) return;
    this.told = true;
    this.persistence.tell(SECRETS_NOT_KEPT);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
