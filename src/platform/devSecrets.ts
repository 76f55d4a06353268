import * as fs from 'node:fs';
import type { Logger } from '../core/util/log';
import type { RunMode } from '../core/signing/confirmPolicy';
import type { SecretStore } from './secrets';

/** The part of SecretStore the import needs (a plain object in unit tests). */
export type DevSecretsTarget = Pick<
  SecretStore,
  'getApiKey' | 'setApiKey' | 'getSignerPublicKey' | 'setSignerKey'
>;

export interface DevSecretsOptions {
  /** How VS Code runs the extension (platform/automation.ts `runMode()`): an installed one never imports. */
  readonly mode: RunMode;
  /**
   * Where requests of the named profile go (`{baseUrl}/{slug}`): the origin the sandbox's API key is
   * bound to, so it is never sent anywhere else. Undefined when no such profile is set up.
   */
  readonly originOf: (profileName: string) => string | undefined;
  /** The secrets file; by default the one `npm start` names in ALEPHIUM_GATEWAY_DEV_SECRETS_FILE. */
  readonly file?: string | undefined;
}

/**
 * `npm start` hands the sandbox's test API key and a funded test signer key to the extension through a
 * file named by ALEPHIUM_GATEWAY_DEV_SECRETS_FILE (mode 0600, in the session's temporary folder, deleted
 * when `npm start` stops). VS Code web keeps SecretStorage in the browser, and a reload of the window can
 * come back with it empty, so every activation of that session imports what is missing again; a key the
 * user set themselves in the session is left alone. Without the variable (any real setup) this does
 * nothing, and an installed extension (VS Code's production mode) never imports, whatever the environment
 * says. The API key is bound to the sandbox profile's origin, like a key typed into Set API Key.
 */
export async function importDevSecrets(
  secrets: DevSecretsTarget,
  log: Logger,
  options: DevSecretsOptions,
): Promise<boolean> {
  const file = 'file' in options ? options.file : process.env.ALEPHIUM_GATEWAY_DEV_SECRETS_FILE;
  if (options.mode === 'production') {
    if (file) log.warn('Development secrets are not imported into an installed extension.');
    return false;
  }
  if (!file || !fs.existsSync(file)) return false;
  let data: { profile?: string; apiKey?: string; signerPrivateKey?: string };
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof data;
  } catch {
    // Not the parser's message: V8 quotes the start of the text, which would put a key in the log.
    log.error('Could not import development secrets: the secrets file is not valid JSON');
    return false;
  }
  try {
    const imported: string[] = [];
    if (data.profile && data.apiKey && !(await secrets.getApiKey(data.profile))) {
      const origin = options.originOf(data.profile);
      if (origin === undefined)
        log.warn(`The sandbox's test API key was not imported: no profile "${data.profile}" is set up`);
      else {
        await secrets.setApiKey(data.profile, data.apiKey, origin);
        imported.push('API key');
      }
    }
    if (data.signerPrivateKey && !(await secrets.getSignerPublicKey())) {
      await secrets.setSignerKey(data.signerPrivateKey);
      imported.push('signer key');
    }
    if (imported.length)
      log.info(
        `Imported the sandbox's test ${imported.join(' and ')} of profile "${data.profile ?? '?'}" into SecretStorage`,
      );
    return imported.length > 0;
  } catch (error) {
    log.error(
      `Could not import development secrets: ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  }
}
