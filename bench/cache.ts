/**
 * Requests spent on repeated reads of immutable data (the spec's "cache forever" list): contract
 * immFields, code by code hash, chain parameters and confirmed transaction details. Each kind is first
 * read by 10 callers at once (cold: in-flight sharing should make that one request), then 100 more times.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ArtifactRegistry } from '../src/core/artifacts';
import { readEventStateDiff, type EventAt } from '../src/core/debugging/eventStateDiff';
import type { GatewayClient } from '../src/core/gateway';
import { forgetHistorySupport, historySupport } from '../src/core/gateway/history';
import { countingTransport, counters, gatewayClient, newKey, sandbox, trigger } from './lib/sandbox';
import { figure, log, type Figure } from './lib/stats';

const COLD_CALLERS = 10;
const REPEATS = 100;
/** "What Changed" on an event: the history probe, the block header and the pinned multicall. */
const STATE_DIFF = 'state diff around an event';

const counterArtifact = ArtifactRegistry.fromFiles([
  {
    path: 'artifacts/Counter.ral.json',
    text: fs.readFileSync(
      path.join(import.meta.dirname, '..', 'sandbox', 'project', 'artifacts', 'Counter.ral.json'),
      'utf8',
    ),
  },
]).byName('Counter');

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
      // A person's What Changed: one look (not ten at once), then the same event again and again.
      const [blockHash] = sb.chain.eventsOfTx(txId).map((e) => e.blockHash);
      if (!blockHash || !counterArtifact) throw new Error('no event block or no Counter artifact');
      const event: EventAt = { address, group: instance.group, txId, blockHash, eventIndex: 0 };
      const diff = async () => {
        await historySupport(client, { address, group: instance.group, methodIndex: 0 });
        await readEventStateDiff(client, event, counterArtifact);
      };
      forgetHistorySupport();
      let before = transport.total();
      await diff();
      first[STATE_DIFF] = transport.total() - before;
      before = transport.total();
      for (let r = 0; r < REPEATS; r++) await diff();
      repeats[STATE_DIFF] = transport.total() - before;
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
    if (name === STATE_DIFF) {
      figures.push(
        figure(
          'cache',
          `${name}: requests for the first look`,
          'req',
          raw.map((r) => r.first[name] ?? NaN),
          {
            target: '3 (history probe, header, multicall)',
            met: (s) => s.max <= 3,
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
      continue;
    }
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
