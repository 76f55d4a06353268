import * as fs from 'node:fs';
import type { Logger } from './core/log';
import type { SecretStore } from './secrets';

/**
 * `npm start` hands the sandbox's API key and a funded test signer key to the extension through a file
 * named by ALEPHIUM_GATEWAY_DEV_SECRETS_FILE: imported into SecretStorage once, then the file is deleted,
 * so the secrets end up where real ones live and nowhere else. Without the variable this does nothing.
 */
export async function importDevSecrets(secrets: SecretStore, log: Logger): Promise<boolean> {
  const file = process.env.ALEPHIUM_GATEWAY_DEV_SECRETS_FILE;
  if (!file || !fs.existsSync(file)) return false;
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      profile?: string;
      apiKey?: string;
      signerPrivateKey?: string;
    };
    if (data.profile && data.apiKey) await secrets.setApiKey(data.profile, data.apiKey);
    if (data.signerPrivateKey) await secrets.setSignerKey(data.signerPrivateKey);
    log.info(`Imported the development secrets of profile "${data.profile ?? '?'}" into SecretStorage`);
    return true;
  } catch (error) {
    log.error(
      `Could not import development secrets: ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  } finally {
    fs.rmSync(file, { force: true });
  }
}
