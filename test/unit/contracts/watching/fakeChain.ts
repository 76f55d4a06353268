/**
 * A Counter on a fake gateway, for the watched contracts model: every increment emits one event
 * `newCount=<count>` and moves the state's first mutable field. State reads can be held, so a test
 * decides in which order crossing reads answer; each read takes the chain as it is when it is asked.
 */
import type { ContractEvent, ContractState, GatewayClient } from '../../../../src/core/gateway';
import { silentLogger } from '../../../../src/core/util/log';
import { ArtifactRegistry } from '../../../../src/core/artifacts';
import { WatchedContractsModel } from '../../../../src/core/contracts/watching/watchedContractsModel';

export const COUNTER = '22fnZLkZJUSyhXgboirmJktWkEBRk1pV8L6gfpc53hvVM';

export interface FakeCounter {
  readonly client: GatewayClient;
  /** Increments the counter (one event). */
  increment(times?: number): ContractEvent[];
  /** While set, state reads wait in {@link heldStates} until released. */
  hold: boolean;
  readonly heldStates: (() => void)[];
  /** How many requests of each endpoint were sent. */
  readonly sent: Record<string, number>;
}

export function fakeCounter(address = COUNTER, start = 0): FakeCounter {
  const events: ContractEvent[] = [];
  const sent: Record<string, number> = {};
  const count = (what: string) => (sent[what] = (sent[what] ?? 0) + 1);
  const counter: FakeCounter = {
    hold: false,
    heldStates: [],
    sent,
    increment(times = 1) {
      const made: ContractEvent[] = [];
      for (let i = 0; i < times; i++) {
        const n = events.length + 1;
        const event: ContractEvent = {
          txId: n.toString(16).padStart(64, '0'),
          blockHash: '00'.repeat(32),
          contractAddress: address,
          eventIndex: 0,
          fields: [{ type: 'U256', value: String(n) }],
        };
        events.push(event);
        made.push(event);
      }
      return made;
    },
    client: {
      getContractState: async (): Promise<ContractState> => {
        count('state');
        const value = String(events.length);
        if (counter.hold) await new Promise<void>((resolve) => counter.heldStates.push(resolve));
        return {
          address,
          bytecode: '00',
          codeHash: 'ab'.repeat(32),
          initialStateHash: 'cd'.repeat(32),
          immFields: [],
          mutFields: [{ type: 'U256', value }],
          asset: { attoAlphAmount: '1000000000000000000' },
        };
      },
      getContractEventCount: () => {
        count('count');
        return Promise.resolve(events.length);
      },
      getContractEvents: (_a: string, page: { start: number; limit?: number }) => {
        count('events');
        const end = Math.min(events.length, page.start + (page.limit ?? 100));
        return Promise.resolve({ events: events.slice(page.start, end), nextStart: end });
      },
    } as unknown as GatewayClient,
  };
  counter.increment(start);
  return counter;
}

/** A model over `client` (no artifacts: no getters, so every state is one request). */
export function modelOver(client: () => GatewayClient | undefined, pageSize = 10): WatchedContractsModel {
  return new WatchedContractsModel({
    log: silentLogger,
    client,
    registry: () => Promise.resolve(ArtifactRegistry.fromFiles([])),
    network: () => 'devnet',
    pageSize: () => pageSize,
  });
}

/** The count the model's state of `address` shows. */
export function shownCount(model: WatchedContractsModel, address = COUNTER): number | undefined {
  const v = model.stateOf(address)?.state?.mutFields[0]?.value;
  return v === undefined ? undefined : Number(v);
}

/** The newest `newCount` the model's feed of `address` lists. */
export function newestEvent(model: WatchedContractsModel, address = COUNTER): number | undefined {
  const v = model.feedIfAny(address)?.items()[0]?.event.fields[0]?.value;
  return v === undefined ? undefined : Number(v);
}

/** Lets pending promise callbacks run (bounded). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
