/**
 * The glue of core/gateway/networkPolicy.ts: reads VS Code's network settings, the process environment and
 * the certificate files the policy names, and hands plain values to the transport. It decides nothing.
 */
import * as fs from 'node:fs';
import * as tls from 'node:tls';
import { certificatesBeyond, certificateSources, networkPolicy, type NetworkOptions } from '../core/gateway';
import type { Logger } from '../core/util/log';
import * as config from './config';

/** Node 22.15 added a reader of the system's store; VS Code 1.100's Node 20 does not have it. */
type SystemStoreReader = (type: 'system') => string[];

/** What the transport of a new client needs, read now (a change of the settings rebuilds the client). */
export function networkOptions(log: Logger): NetworkOptions {
  const environment = process.env;
  const policy = networkPolicy({ ...config.networkSettings(), environment });
  if (policy.problem) log.warn(`Network: ${policy.problem}.`);
  const readSystemStore = (tls as { getCACertificates?: SystemStoreReader }).getCACertificates;
  const sources = certificateSources({
    systemCertificates: config.systemCertificates(),
    hasSystemStore: typeof readSystemStore === 'function',
    platform: process.platform,
    environment,
  });
  const texts: string[] = [];
  if (sources.systemStore && readSystemStore) texts.push(...readSystemStore('system'));
  const bundle = sources.systemBundles.find((file) => fs.existsSync(file));
  if (bundle) texts.push(readText(bundle, log) ?? '');
  if (sources.extraFile) texts.push(readText(sources.extraFile, log, 'NODE_EXTRA_CA_CERTS') ?? '');
  const extraCertificates = certificatesBeyond(tls.rootCertificates, texts);
  log.info(
    `Network: ${policy.proxy ? `proxy ${policy.proxy.label} (from ${policy.proxy.from})` : 'no proxy'}` +
      `${policy.proxy && !policy.strictSSL ? ', certificates not verified through it (http.proxyStrictSSL)' : ''}` +
      `; ${extraCertificates.length} certificates trusted besides Node's roots`,
  );
  return { policy, extraCertificates };
}

function readText(file: string, log: Logger, from?: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log.warn(`Network: the certificates of ${from ?? file} were not read: ${reason}`);
    return undefined;
  }
}
