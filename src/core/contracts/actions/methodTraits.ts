/**
 * What each method of a contract does, read from its bytecode: the artifact's `functions` do not say
 * which methods are public, use assets or change state, the code does. A getter (view-only: public, no
 * asset use, no field written, nothing emitted, created, moved or called elsewhere, also through the
 * private methods it calls) is offered as Simulate only; running it as a transaction changes nothing.
 */
import type { Method } from '../../bytecode/instructions';
import { contractMethods } from '../../bytecode/contractMethods';
import type { ContractArtifact } from '../../artifacts';

export interface MethodTraits {
  readonly isPublic: boolean;
  /** Takes assets the caller approves (`@using(preapprovedAssets = true)`): the approval prompt applies. */
  readonly payable: boolean;
  /** Uses approved assets or the contract's own. */
  readonly usesAssets: boolean;
  /** Writes a field, emits an event, moves assets, creates or destroys a contract or calls another one. */
  readonly changesState: boolean;
  /** Public, no asset use and no state change: reading it needs no transaction. */
  readonly viewOnly: boolean;
}

/** When the bytecode cannot be read: assume everything, so nothing callable is hidden or refused. */
const UNKNOWN: MethodTraits = {
  isPublic: true,
  payable: true,
  usesAssets: true,
  changesState: true,
  viewOnly: false,
};

const CALL_EXTERNAL = 0x01;
const CALL_EXTERNAL_BY_SELECTOR = 0xd4;

/**
 * Opcodes with an effect beyond the call's own answer (node `vm/Instr.scala`; names as the SDK's
 * `codec/instr-codec.ts`): events (Log1-Log9), field writes, asset moves, contract creation, destruction
 * and migration, map entries, gas payment. `emit Debug` is left out: it only exists in debug builds.
 */
const EFFECT_OPCODES: ReadonlySet<number> = new Set([
  0x5d,
  0x5e,
  0x5f,
  0x60,
  0x61,
  0x73,
  0x74,
  0x75,
  0x76, // Log1-Log9
  0xa1,
  0xc4, // StoreMutField, StoreMutFieldByIndex
  0xa2,
  0xa3,
  0xa7,
  0xa8,
  0xa9,
  0xaa,
  0xab,
  0xac,
  0xbd,
  0xbe, // approvals, transfers, burn, lock
  0xad,
  0xae,
  0xaf,
  0xb0,
  0xba,
  0xbb,
  0xbc, // create, copy-create, destroy, migrate
  0xbf,
  0xc0,
  0xc1,
  0xc2,
  0xc6,
  0xc7,
  0xc8,
  0xc9, // sub-contracts, create-and-transfer
  0xd0,
  0xd2, // PayGasFee, CreateMapEntry
  CALL_EXTERNAL,
  CALL_EXTERNAL_BY_SELECTOR, // another contract may change its own state
]);

/** The typed simple instructions (instructions.ts) that have an effect; every other one is `Other`. */
const SIMPLE_EFFECTS: ReadonlySet<string> = new Set([
  'ApproveAlph',
  'ApproveToken',
  'TransferAlph',
  'CreateContract',
  'CreateContractWithToken',
  'CreateContractAndTransferToken',
]);

function hasEffect(instr: Method['instrs'][number]): boolean {
  if (instr.name === 'Other') return EFFECT_OPCODES.has(instr.code);
  return instr.name === 'CallExternal' || SIMPLE_EFFECTS.has(instr.name);
}

/** Each method's traits, in the artifact's order; undefined when the bytecode cannot be read. */
export function methodTraits(bytecode: string): MethodTraits[] | undefined {
  let methods: Method[];
  try {
    methods = contractMethods(bytecode);
  } catch {
    return undefined;
  }
  const direct = methods.map((m) => m.instrs.some(hasEffect));
  const callees = methods.map((m) => m.instrs.flatMap((i) => (i.name === 'CallLocal' ? [i.index] : [])));
  // A method changes state when a local method it calls does: spread along CallLocal, at most once per method.
  const changes = [...direct];
  for (let round = 0; round < methods.length; round++) {
    let moved = false;
    callees.forEach((called, i) => {
      if (!changes[i] && called.some((c) => changes[c] === true || c >= methods.length)) {
        changes[i] = true;
        moved = true;
      }
    });
    if (!moved) break;
  }
  return methods.map((m, i) => {
    const usesAssets = m.usePreapprovedAssets || m.useContractAssets;
    const changesState = changes[i] === true;
    return {
      isPublic: m.isPublic,
      payable: m.usePreapprovedAssets,
      usesAssets,
      changesState,
      viewOnly: m.isPublic && !usesAssets && !changesState,
    };
  });
}

/** One method's traits; everything assumed when the bytecode or the index cannot be read. */
export function methodTraitsOf(
  artifact: Pick<ContractArtifact, 'bytecode'>,
  methodIndex: number,
): MethodTraits {
  return methodTraits(artifact.bytecode)?.[methodIndex] ?? UNKNOWN;
}
