/**
 * "Alephium: What Changed": from an event row of Watched Contracts (or the palette, with a watched contract
 * and one of its events picked), the contract's fields and getters before and after the event's block,
 * in a read-only document. The flow is core/debugging/whatChangedFlow.ts, loaded with the debugging engine;
 * this file only gives it the pickers, the status bar and the document.
 */
import * as vscode from 'vscode';
import type { WhatChangedResult } from '../core/debugging/whatChangedFlow';
import { inert } from '../core/text/inert';
import type { ContractsService } from '../contracts';
import type { Services } from '../services';
import { showInfo } from '../platform/notify';
import { argValue, pick, pickContract } from '../platform/prompts';
import { showResult } from '../platform/resultsDocument';
import { loadEngine } from './loadEngine';

export type WhatChangedDeps = Pick<Services, 'log' | 'redactor' | 'connection' | 'contracts'>;

export async function eventWhatChanged(deps: WhatChangedDeps, args: unknown): Promise<WhatChangedResult> {
  const { contracts } = deps;
  const engine = await loadEngine();
  return engine.whatChanged(args, {
    client: deps.connection.requireClient(),
    watched: (address) => contracts.entry(address),
    pickContract: async () => {
      const registry = await contracts.registry();
      const describe = (c: Parameters<ContractsService['describe']>[0]) => contracts.describe(c, registry);
      return pickContract(contracts.watched, describe, args, inert`What Changed: which contract?`);
    },
    events: async (address) => {
      const feed = contracts.model.feed(address);
      if (!feed.loaded) await contracts.model.loadLatestEvents(address);
      return feed.items().map((item) => item.event);
    },
    pickEvent: async (items) =>
      (
        await pick(
          // An event's summary is chain data: outside text.
          items.map((item, index) => ({
            label: inert`${item.label}`,
            description: inert`${item.description}`,
            index,
          })),
          { title: inert`What Changed: around which event?` },
        )
      ).index,
    resolve: (address) => contracts.resolve(address),
    structs: async () => (await contracts.registry()).structs,
    // A few requests are not worth a question: the cost shows in the status bar while they run.
    say: (notice) => void (notice.worthSaying ? showInfo(inert`${notice.text}`) : undefined),
    progress: (text, work) => {
      vscode.window.setStatusBarMessage(`$(sync~spin) ${text}`, work);
      return work;
    },
    show: async (title, text) => {
      if (argValue(args, 'show') !== 'none') await showResult(title, text, 'text');
    },
    log: (line) => deps.log.info(line),
  });
}
