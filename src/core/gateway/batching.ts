/**
 * Batching of contract calls into `multicall-contract` requests. One multicall replaces up to 20
 * call-contract requests (the node's maximum), which matters on a 5 requests/s plan. Each caller gets
 * its own result or its own failure: a failed call never fails its neighbours, and a failed request
 * fails only the calls it carried.
 */
import type { ContractCall, GatewayClient, RequestOptions } from './client';
import { ContractCallFailedError, ValidationError, type GatewayError } from './errors';
import type { Priority } from './rateLimiter';
import type { CallContractResult, CallContractSucceeded } from './schemas';
import { MAX_MULTICALL } from './requests';
import { isList } from '../util/guards';
import { abortError } from '../util/clock';

export type CallOutcome =
  | { readonly ok: true; readonly result: CallContractSucceeded }
  | { readonly ok: false; readonly error: GatewayError | Error };

const ENDPOINT = 'POST /contracts/multicall-contract';

function outcomeOf(result: CallContractResult): CallOutcome {
  if (result.type === 'CallContractSucceeded') return { ok: true, result };
  if (result.type === 'CallContractFailed') {
    return { ok: false, error: new ContractCallFailedError(ENDPOINT, result.error) };
  }
  return { ok: false, error: new ContractCallFailedError(ENDPOINT, `unknown result type ${result.rawType}`) };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Runs any number of calls as multicalls of at most 20, concurrently (the client paces them), and
 * returns one outcome per call, in order. Input errors fail only the offending call.
 */
export async function callContracts(
  client: GatewayClient,
  calls: readonly ContractCall[],
  options?: RequestOptions,
): Promise<CallOutcome[]> {
  if (!isList(calls)) throw new ValidationError('calls', 'must be an array');
  const outcomes: (CallOutcome | undefined)[] = new Array<CallOutcome | undefined>(calls.length);
  // Validate one by one first, so that one bad call does not make the node reject its whole batch.
  const valid: number[] = [];
  calls.forEach((call, i) => {
    try {
      client.validateContractCall(`calls[${i}]`, call);
      valid.push(i);
    } catch (error) {
      outcomes[i] = { ok: false, error: error as Error };
    }
  });
  await Promise.all(
    chunks(valid, MAX_MULTICALL).map(async (indexes) => {
      try {
        const results = await client.multicallContract(
          indexes.map((i) => calls[i] as ContractCall),
          options,
        );
        indexes.forEach(
          (callIndex, j) => (outcomes[callIndex] = outcomeOf(results[j] as CallContractResult)),
        );
      } catch (error) {
        for (const callIndex of indexes) outcomes[callIndex] = { ok: false, error: error as Error };
      }
    }),
  );
  return outcomes as CallOutcome[];
}

interface Pending {
  readonly call: ContractCall;
  readonly priority: Priority;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (result: CallContractSucceeded) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Collects calls made independently (e.g. by several tree items refreshing at once) and sends them as
 * multicalls. Calls made in the same tick share a batch; `windowMs` widens the window on the clock.
 */
export class MulticallBatcher {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly client: GatewayClient,
    private readonly options: { windowMs?: number; sleep?: (ms: number) => Promise<void> } = {},
  ) {}

  /** Resolves with the call's success; rejects with its own ContractCallFailedError or request error. */
  call(call: ContractCall, options: RequestOptions = {}): Promise<CallContractSucceeded> {
    return new Promise<CallContractSucceeded>((resolve, reject) => {
      // A bad call throws here, which rejects this promise with its ValidationError before anything is queued.
      this.client.validateContractCall('call', call);
      if (options.signal?.aborted) {
        reject(abortError(options.signal));
        return;
      }
      const entry: Pending = {
        call,
        priority: options.priority ?? 'user',
        signal: options.signal,
        resolve,
        reject,
      };
      this.pending.push(entry);
      options.signal?.addEventListener(
        'abort',
        () => {
          // Still waiting for the flush: just leave the batch. Already sent: the caller stops waiting.
          this.pending = this.pending.filter((p) => p !== entry);
          reject(abortError(options.signal));
        },
        { once: true },
      );
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const windowMs = this.options.windowMs ?? 0;
    const wait =
      windowMs > 0 && this.options.sleep
        ? this.options.sleep(windowMs)
        : new Promise<void>((r) => queueMicrotask(r));
    void wait.then(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    for (const group of chunks(batch, MAX_MULTICALL)) {
      // A batch carrying any user call is a user request.
      const priority: Priority = group.some((p) => p.priority === 'user') ? 'user' : 'background';
      this.client
        .multicallContract(
          group.map((p) => p.call),
          { priority },
        )
        .then(
          (results) =>
            group.forEach((p, j) => {
              const outcome = outcomeOf(results[j] as CallContractResult);
              if (outcome.ok) p.resolve(outcome.result);
              else p.reject(outcome.error);
            }),
          (error: unknown) => group.forEach((p) => p.reject(error)),
        );
    }
  }
}
