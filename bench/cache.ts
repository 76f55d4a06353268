/**
 * Requests spent on repeated reads of immutable data (the spec's "cache forever" list): contract
 * immFields, code by code hash, chain parameters and confirmed transaction details. Each kind is first
 * read by 10 callers at once (cold: in-flight sharing should make that one request), then 100 more times.
 */
import type { GatewayClient } from '../src/core/gateway';
import { countingTransport, counters, gatewayClient, newKey, sandbox, trigger } from './lib/sandbox';
import { figure, log, type Figure } from './lib/stats';

const COLD_CALLERS = 10;
const REPEATS = 100;

export interface CacheRun {
  /** Requests of the cold, concurrent first read, per kind. */
  readonly first: Record<string, number>;
  /** Requests of the 100 repeats, per kind. */
  readonly repeats: Record<string, number>;
}

export async function cacheBench(runs: number): Promise<{ figures: Figure[]; raw: CacheRun[] }> {
  const sb = await sandbox();
  const transport = countingTransport();
  const raw: CacheRun[] = [];
  try {
    const [address] = counters(sb, 1) as [string];
    const [txId] = trigger(sb, address, 1) as [string];
    const instance = sb.chain.contracts.get(address);
    if (!instance) throw new Error('the Counter was not deployed');
    const codeHash = sb.chain.contractState(instance).codeHash as string;
    const kinds: [string, (c: GatewayClient) => Promise<unknown>][] = [
      ['code by hash', (c) => c.getContractCode(codeHash)],
      ['contract immFields', (c) => c.getContractImmFields(address)],
      ['chain params', (c) => c.getChainParams()],
      ['confirmed tx details', (c) => c.getTxDetails(txId)],
    ];
    for (let i = 0; i < runs; i++) {
      const client = gatewayClient(sb, newKey(sb, 'pro', `cache${i}`), 'pro', transport.send);
      const first: Record<string, number> = {};
      const repeats: Record<string, number> = {};
      for (const [name, read] of kinds) {
        let before = transport.total();
        await Promise.all(Array.from({ length: COLD_CALLERS }, () => read(client)));
        first[name] = transport.total() - before;
        before = transport.total();
        for (let r = 0; r < REPEATS; r++) await read(client);
        repeats[name] = transport.total() - before;
      }
      client.dispose();
      log(`cache run ${i + 1}: first ${JSON.stringify(first)}, repeats ${JSON.stringify(repeats)}`);
      raw.push({ first, repeats });
    }
  } finally {
    await transport.close();
    await sb.close();
  }
  const figures: Figure[] = [];
  for (const name of Object.keys(raw[0]?.first ?? {})) {
    figures.push(
      figure(
        'cache',
        `${name}: requests for ${COLD_CALLERS} cold concurrent reads`,
        'req',
        raw.map((r) => r.first[name] ?? NaN),
        {
          target: '1',
          met: (s) => s.max <= 1,
        },
      ),
      figure(
        'cache',
        `${name}: requests for ${REPEATS} repeats`,
        'req',
        raw.map((r) => r.repeats[name] ?? NaN),
        {
          target: '0',
          met: (s) => s.max === 0,
        },
      ),
    );
  }
  return { figures, raw };
}
