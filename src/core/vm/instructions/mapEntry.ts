/**
 * The contract a Ralph map entry is (`CreateMapEntry.genContract` in `Instr.scala`): four public
 * methods, each asserting that the caller is the parent (whose id is the last immutable field), then
 * loading an immutable field, loading or storing a mutable field by index, or destroying the entry
 * (the only one that uses the contract's assets). Its bytes are built here because their length is
 * what `CreateMapEntry` pays as code size.
 */
import { concatBytes, encodeI32 } from '../../protocol';
import { opcodeByName } from '../opcodes';

const op = (name: string, ...operand: number[]): Uint8Array =>
  Uint8Array.of(opcodeByName(name).code, ...operand);

interface Shape {
  readonly args: number;
  readonly returns: number;
  readonly modifier: number;
  readonly body: readonly Uint8Array[];
}

function method(parentIndex: number, shape: Shape): Uint8Array {
  const guard = [op('CallerContractId'), op('LoadImmField', parentIndex), op('ByteVecEq'), op('Assert')];
  const instrs = [...guard, ...shape.body];
  return concatBytes(
    Uint8Array.of(1, shape.modifier),
    encodeI32(shape.args),
    encodeI32(shape.args),
    encodeI32(shape.returns),
    encodeI32(instrs.length),
    ...instrs,
  );
}

/** Asset modifier byte 2: `useContractAssets` without preapproved assets (the destroy method). */
const CONTRACT_ASSETS = 2;

export function encodeMapEntryContract(immFields: number, mutFields: number): Uint8Array {
  const parent = immFields - 1;
  const local = op('LoadLocal', 0);
  const methods = [
    method(parent, { args: 1, returns: 1, modifier: 0, body: [local, op('LoadImmFieldByIndex')] }),
    method(parent, { args: 1, returns: 1, modifier: 0, body: [local, op('LoadMutFieldByIndex')] }),
    method(parent, {
      args: 2,
      returns: 0,
      modifier: 0,
      body: [local, op('LoadLocal', 1), op('StoreMutFieldByIndex')],
    }),
    method(parent, { args: 1, returns: 0, modifier: CONTRACT_ASSETS, body: [local, op('DestroySelf')] }),
  ];
  let end = 0;
  const ends = methods.map((m) => (end += m.length));
  return concatBytes(
    encodeI32(immFields + mutFields),
    encodeI32(ends.length),
    ...ends.map(encodeI32),
    ...methods,
  );
}
