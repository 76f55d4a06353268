import * as fs from 'node:fs';
import type { Logger } from './core/log';
import type { SecretStore } from './secrets';

/** The part of SecretStore the import needs (a plain object in unit tests). */
export type DevSecretsTarget = Pick<SecretStore, 'getApiKey' | 'setApiKey' | 'getSignerKey' | 'setSignerKey'>;

/**
 * `npm start` hands the sandbox's test API key and a funded test signer key to the extension through a
 * file named by ALEPHIUM_GATEWAY_DEV_SECRETS_FILE (mode 0600, in the session's temporary folder, deleted
 * when `npm start` stops). VS Code web keeps SecretStorage in the browser, and a reload of the window can
 * come back with it empty, so every activation of that session imports what is missing again; a key the
 * user set themselves in the session is left alone. Without the variable (any real setup) this does nothing.
 */
export async function importDevSecrets(
  secrets: DevSecretsTarget,
  log: Logger,
  file: string | undefined = process.env.ALEPHIUM_GATEWAY_DEV_SECRETS_FILE,
): Promise<boolean> {
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
      await secrets.setApiKey(data.profile, data.apiKey);
      imported.push('API key');
    }
    if (data.signerPrivateKey && !(await secrets.getSignerKey())) {
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
