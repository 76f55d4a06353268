/**
 * What a Ralph debug session runs (issue 31): a contract method as the node's test-contract runs it
 * ({@link MethodLaunch}), or a mined transaction's script run again against the state before its block
 * ({@link ReplayLaunch}). Either way the session gets a started VM, the contracts it can name and place
 * lines in (by contract id: artifact, decoded code, source map), and how to read the run's end.
 */
import { contractIdFromAddress, groupOfAddress, hexToBytes } from '../protocol';
import { lockupScriptFromAddress } from '../protocol';
import type { ContractArtifact } from '../artifacts';
import type { RalphScan } from '../ralph/scanner';
import {
  DEBUG_EVENT_INDEX,
  MemoryWorldState,
  decodeContract,
  forkActivationsOf,
  hardForkAt,
  startTestContract,
  startTxScript,
  valToNode,
  type Method,
  type NodeContractState,
  type NodeVal,
  type Outcome,
  type VirtualMachine,
  type VmOptions,
} from '../vm';
import { placeLines, type Placement } from './placement';

export interface LaunchSource {
  readonly path: string;
  readonly scan: RalphScan;
}

export interface MethodLaunch {
  readonly artifact: ContractArtifact;
  /** The code to run (default: the artifact's release code; a devnet deploy runs the debug code). */
  readonly bytecode?: string;
  readonly method: string;
  readonly args: readonly NodeVal[];
  readonly immFields: readonly NodeVal[];
  readonly mutFields: readonly NodeVal[];
  /** The contract's own assets (default: 1 ALPH). */
  readonly attoAlphAmount?: string;
  readonly tokens?: ReadonlyArray<{ id: string; amount: string }>;
  /** The address the contract runs at (default: the zero id's, as the node's test-contract). */
  readonly address?: string;
  /** The tx's signer (`callerAddress!()` in the method). */
  readonly caller: string;
  /** ALPH the caller brings (approved to a payable method; default 1 ALPH). */
  readonly callerAttoAlph?: string;
  /** The contract's source, for breakpoints and lines. */
  readonly source?: LaunchSource;
  readonly blockTimeStamp?: number;
}

/** A contract of a replay's world: its state before the block, and what the workspace knows of it. */
export interface ReplayContract {
  readonly address: string;
  readonly state: Omit<NodeContractState, 'address' | 'codeHash' | 'initialStateHash'>;
  readonly artifact?: ContractArtifact;
  readonly source?: LaunchSource;
}

/** A mined transaction's script, run again as its signer with its id, inputs and gas. */
export interface ReplayLaunch {
  readonly kind: 'replay';
  readonly txId: string;
  readonly script: string;
  readonly caller: string;
  /** What the signer's inputs hold beyond the fixed outputs and the fee: what the script may approve. */
  readonly callerAttoAlph: string;
  readonly networkId: number;
  readonly blockTimeStamp: number;
  readonly gasAmount: number;
  readonly gasPrice: string;
  readonly fixedOutputs: number;
  readonly contracts: readonly ReplayContract[];
}

export type DebugLaunch = MethodLaunch | ReplayLaunch;

export const isReplay = (launch: DebugLaunch): launch is ReplayLaunch =>
  (launch as { kind?: unknown }).kind === 'replay';

/** A contract the session names and places lines in. */
export interface DebugContract {
  readonly artifact: ContractArtifact;
  /** The methods of the code that runs, decoded once. */
  readonly methods: readonly Method[];
  readonly placement?: Placement;
  readonly sourcePath?: string;
}

export interface ContractFields {
  readonly address: string;
  readonly immFields: readonly NodeVal[];
  readonly mutFields: readonly NodeVal[];
}

function eventCount(
  logs: ReadonlyArray<{ readonly fields: readonly { type: string; value: unknown }[] }>,
): number {
  return logs.filter((l) => !(l.fields[0]?.type === 'I256' && l.fields[0].value === DEBUG_EVENT_INDEX))
    .length;
}

/** How a run ended, for the Debug Console's last lines. */
export type RunEnd =
  | {
      readonly ok: true;
      readonly returns: readonly NodeVal[];
      readonly gasUsed: number;
      /** The named contracts' fields after the run, as `name = value`. */
      readonly fieldsAfter: ReadonlyArray<{ readonly contract: string; readonly fields: string }>;
      /** Every contract the run left, by address, in the node's value shape (what a node answer is compared with). */
      readonly contractsAfter: ReadonlyArray<ContractFields>;
      /** Events emitted (Debug messages not counted, as the node does not list them). */
      readonly events: number;
    }
  | { readonly ok: false; readonly error: string; readonly gasUsed: number };

export interface DebugTarget {
  readonly vm: VirtualMachine;
  /** What the session is called in the Debug Console: `Counter.incrementBy`, `transaction 1a2b…`. */
  readonly title: string;
  /** The name of the script's frame: `TxScript (calls Counter.incrementBy)`. */
  readonly scriptName: string;
  readonly contracts: ReadonlyMap<string, DebugContract>;
  /** The contract whose error codes name a failure no frame of a named contract raised. */
  readonly primary?: DebugContract;
  finish(outcome: Outcome): RunEnd;
}

function debugContract(
  artifact: ContractArtifact,
  bytecode: string,
  source: LaunchSource | undefined,
): DebugContract {
  const methods = decodeContract(hexToBytes(bytecode)).methods;
  return {
    artifact,
    methods,
    ...(source ? { placement: placeLines(artifact, methods, source.scan), sourcePath: source.path } : {}),
  };
}

/** The names of an artifact's immutable or mutable fields, in the order the state lists their values. */
export function fieldNamesOf(sig: ContractArtifact['fieldsSig'], mutable: boolean): string[] {
  return sig.names.filter((_, i) => (sig.isMutable[i] ?? false) === mutable);
}

/** `name = value` for each field of a contract state, named by its artifact. */
function fieldsText(artifact: ContractArtifact, imm: readonly NodeVal[], mut: readonly NodeVal[]): string {
  const immNames = fieldNamesOf(artifact.fieldsSig, false);
  const mutNames = fieldNamesOf(artifact.fieldsSig, true);
  return [
    ...imm.map((v, i) => `${immNames[i] ?? `imm #${i}`} = ${String(v.value)}`),
    ...mut.map((v, i) => `${mutNames[i] ?? `mut #${i}`} = ${String(v.value)}`),
  ].join(', ');
}

export function methodTarget(launch: MethodLaunch, options: VmOptions): DebugTarget {
  const { artifact } = launch;
  const methodIndex = artifact.functions.findIndex((f) => f.name === launch.method);
  if (methodIndex < 0) throw new Error(`${artifact.name} has no method ${launch.method}`);
  const bytecode = launch.bytecode ?? artifact.bytecode;
  const started = startTestContract(
    {
      bytecode,
      methodIndex,
      args: launch.args,
      initialImmFields: launch.immFields,
      initialMutFields: launch.mutFields,
      initialAsset: {
        attoAlphAmount: launch.attoAlphAmount ?? (10n ** 18n).toString(),
        ...(launch.tokens ? { tokens: launch.tokens } : {}),
      },
      inputAssets: [
        {
          address: launch.caller,
          asset: { attoAlphAmount: launch.callerAttoAlph ?? (10n ** 18n).toString() },
        },
      ],
      ...(launch.address ? { address: launch.address } : {}),
      ...(launch.blockTimeStamp !== undefined ? { blockTimeStamp: launch.blockTimeStamp } : {}),
    },
    0n,
    options,
  );
  const contract = debugContract(artifact, bytecode, launch.source);
  return {
    vm: started.vm,
    title: `${artifact.name}.${launch.method}`,
    scriptName: `TxScript (calls ${artifact.name}.${launch.method})`,
    contracts: new Map([[started.contractId, contract]]),
    primary: contract,
    finish: (outcome) => {
      const r = started.finish(outcome).result;
      if (!r.ok) return { ok: false, error: r.error, gasUsed: r.gasUsed };
      const mine = r.contracts.find((c) => c.address === r.address);
      return {
        ok: true,
        returns: r.returns,
        gasUsed: r.gasUsed,
        fieldsAfter: mine
          ? [{ contract: artifact.name, fields: fieldsText(artifact, mine.immFields, mine.mutFields) }]
          : [],
        contractsAfter: r.contracts.map((c) => ({
          address: c.address,
          immFields: c.immFields,
          mutFields: c.mutFields,
        })),
        events: r.events.length,
      };
    },
  };
}

export function replayTarget(launch: ReplayLaunch, options: VmOptions): DebugTarget {
  const states = new Map(launch.contracts.map((c) => [c.address, c]));
  const world = new MemoryWorldState((address) => {
    const c = states.get(address);
    // The code hash is not read by the run (the code is hashed where an instruction needs it).
    return c === undefined ? undefined : { address, codeHash: '', ...c.state };
  });
  const started = startTxScript(
    {
      script: hexToBytes(launch.script, 'Script bytecode'),
      world,
      caller: lockupScriptFromAddress(launch.caller),
      callerAssets: { alph: BigInt(launch.callerAttoAlph), tokens: [] },
      txId: hexToBytes(launch.txId, 'Transaction id'),
      networkId: launch.networkId,
      timeStamp: launch.blockTimeStamp,
      hardFork: hardForkAt(forkActivationsOf(launch.networkId), launch.blockTimeStamp),
      group: groupOfAddress(launch.caller),
      fixedOutputsLength: launch.fixedOutputs,
      gasAmount: launch.gasAmount,
      gasPrice: BigInt(launch.gasPrice),
    },
    options,
  );
  if (!started.vm) {
    const r = started.result();
    const failure = r.outcome.status === 'failed' ? r.outcome.failure.message : 'the script did not start';
    throw new Error(`The transaction's script could not start on the project's VM: ${failure}`);
  }
  const contracts = new Map<string, DebugContract>();
  for (const c of launch.contracts)
    if (c.artifact)
      contracts.set(contractIdFromAddress(c.address), debugContract(c.artifact, c.state.bytecode, c.source));
  const first = [...contracts.values()][0];
  const names = [...new Set([...contracts.values()].map((c) => c.artifact.name))];
  return {
    vm: started.vm,
    title: `transaction ${launch.txId}`,
    scriptName: `TxScript of ${launch.txId.slice(0, 8)}…${names.length ? ` (calls ${names.join(', ')})` : ''}`,
    contracts,
    ...(first ? { primary: first } : {}),
    finish: (outcome) => {
      const r = started.result(outcome);
      if (r.outcome.status !== 'completed')
        return {
          ok: false,
          error: r.outcome.status === 'failed' ? r.outcome.failure.message : 'Aborted',
          gasUsed: r.gasUsed,
        };
      const contractsAfter = launch.contracts.flatMap((c): ContractFields[] => {
        const record = world.getContract(contractIdFromAddress(c.address));
        if (!record) return [];
        const imm = record.immFields.map(valToNode);
        const mut = record.mutFields.map(valToNode);
        return [{ address: c.address, immFields: imm, mutFields: mut }];
      });
      const fieldsAfter = contractsAfter.flatMap((after) => {
        const c = contracts.get(contractIdFromAddress(after.address));
        if (!c) return [];
        const text = fieldsText(c.artifact, after.immFields, after.mutFields);
        return [{ contract: `${c.artifact.name} @ ${after.address}`, fields: text }];
      });
      return {
        ok: true,
        returns: r.returns.map(valToNode),
        gasUsed: r.gasUsed,
        fieldsAfter,
        contractsAfter,
        events: eventCount(r.logs),
      };
    },
  };
}
