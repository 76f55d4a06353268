/**
 * A loaded contract as a frame runs it (`StatefulContractObject` in `Contract.scala`): its code, its
 * immutable fields, its mutable fields as they are now and as they were when loaded (a state update is
 * charged only when they differ), its code hash and initial state hash, and the selector cache of
 * `CallExternalBySelector` (`getMethodBySelector`, which charges for the methods it probes).
 */
import { Reader, blake2b256, bytesToHex, concatBytes, equalBytes } from '../protocol';
import { decodeContract, type Contract, type Method } from './decode';
import { fail } from './failure';
import type { CodeObject } from './frame';
import { estimateByteSize, serializeVals, valEquals, type Val } from './values';

/** `StatefulContract.initialStateHash`: a double Blake2b of the code hash and every field's serde. */
export function initialStateHashOf(
  codeHash: Uint8Array,
  immFields: readonly Val[],
  mutFields: readonly Val[],
): Uint8Array {
  return blake2b256(blake2b256(concatBytes(codeHash, serializeVals([...immFields, ...mutFields]))));
}

/** The length of a contract's method bytes (the last method end offset), which load gas prices. */
function methodsByteLength(contract: Contract): number {
  return contract.methodIndexes[contract.methodIndexes.length - 1] ?? 0;
}

export interface SelectorSearch {
  readonly methodIndex: number;
  /** Methods newly probed for this search (0 when the cache answered). */
  readonly probed: number;
}

export class ContractObject implements CodeObject {
  readonly code: Contract;
  readonly codeHash: Uint8Array;
  readonly initialStateHash: Uint8Array;
  readonly mutFields: Val[];
  private readonly initialMutFields: readonly Val[];
  private readonly selectors = new Map<number, number>();
  private searchedUpTo = -1;

  constructor(
    readonly contractId: Uint8Array,
    readonly bytecode: Uint8Array,
    readonly immFields: readonly Val[],
    mutFields: readonly Val[],
    initialStateHash?: Uint8Array,
  ) {
    this.code = decodeContract(bytecode);
    this.codeHash = blake2b256(bytecode);
    this.initialStateHash = initialStateHash ?? initialStateHashOf(this.codeHash, immFields, mutFields);
    this.mutFields = [...mutFields];
    this.initialMutFields = [...mutFields];
  }

  get methods(): readonly Method[] {
    return this.code.methods;
  }

  get contractIdHex(): string {
    return bytesToHex(this.contractId);
  }

  /** `isUpdated`: a mutable field differs from its value at load time. */
  get isUpdated(): boolean {
    return this.mutFields.some((v, i) => !valEquals(v, this.initialMutFields[i] as Val));
  }

  /** `estimateContractLoadByteSize`: the fields' estimated sizes plus the method bytes. */
  estimateLoadByteSize(): number {
    const fields = [...this.immFields, ...this.mutFields].reduce((n, v) => n + estimateByteSize(v), 0);
    return fields + methodsByteLength(this.code);
  }

  getImmField(index: number): Val {
    const v = this.immFields[index];
    if (v === undefined)
      fail(
        'InvalidImmFieldIndex',
        `Invalid immutable field index: ${index}, immutable fields length is: ${this.immFields.length}`,
      );
    return v;
  }

  getMutField(index: number): Val {
    const v = this.mutFields[index];
    if (v === undefined)
      fail(
        'InvalidMutFieldIndex',
        `Invalid mutable field index: ${index}, mutable fields length is: ${this.mutFields.length}`,
      );
    return v;
  }

  setMutField(index: number, v: Val): void {
    const current = this.getMutField(index);
    if (current.type !== v.type) fail('InvalidMutFieldType');
    this.mutFields[index] = v;
  }

  /**
   * `getMethodBySelector`: a cache hit costs no probe; otherwise the search goes on from where the
   * last one stopped, caching every selector it reads, and reports how many methods it walked.
   */
  methodBySelector(selector: number): SelectorSearch {
    const cached = this.selectors.get(selector);
    if (cached !== undefined) return { methodIndex: cached, probed: 0 };
    const start = this.searchedUpTo;
    let index = start + 1;
    let found = false;
    while (!found && index < this.code.methods.length) {
      const own = selectorOf(this.code.methods[index] as Method);
      if (own !== undefined) this.selectors.set(own, index);
      if (own === selector) found = true;
      else index += 1;
    }
    this.searchedUpTo = index;
    if (!found) fail('InvalidMethodSelector', invalidSelectorText(selector));
    return { methodIndex: index, probed: index - start };
  }
}

/** `Method.extractSelector`: a public method whose first instruction is `MethodSelector`. */
function selectorOf(method: Method): number | undefined {
  const first = method.instrs[0];
  if (!method.isPublic || first === undefined || first.name !== 'MethodSelector') return undefined;
  return first.operand.kind === 'selector' ? first.operand.value : undefined;
}

/** Whether two contract codes are byte-equal (a migration to the same code changes nothing). */
export function sameCode(a: ContractObject, bytecode: Uint8Array): boolean {
  return equalBytes(a.bytecode, bytecode);
}

/** Reads a `AVector[Val]` (what `popFields` deserializes), failing as the node's contract serde does. */
export function readFieldsStrict(bytes: Uint8Array, read: (r: Reader) => Val[]): Val[] {
  const r = new Reader(bytes);
  const vals = read(r);
  if (!r.atEnd()) fail('SerdeErrorCreateContract', 'SerdeErrorCreateContract: redundant bytes');
  return vals;
}

function invalidSelectorText(selector: number): string {
  const hex = (selector >>> 0).toString(16).padStart(8, '0');
  return (
    `Invalid method selector: ${hex}. This method might have been created before the Rhone upgrade and does ` +
    "not support dynamic calling. You'll need to call it directly using the method index."
  );
}
