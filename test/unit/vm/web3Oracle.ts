/**
 * @alephium/web3's codec as an independent oracle for the VM's decoder: both decode the same method
 * bytes; the instruction names, codes and boundaries must agree, and each instruction web3 decoded
 * must re-encode (with web3's own encoder) to exactly the bytes the VM's decoder consumed for it.
 * Used by decode.test.ts and by scripts/checkVmOnRealData.ts.
 */
import { codec } from '@alephium/web3';
import { Reader, bytesToHex } from '../../../src/core/protocol';
import { readInstr, readMethod, type CodeContext } from '../../../src/core/vm';

export interface OracleMismatch {
  readonly instrIndex: number;
  readonly what: string;
}

function instrSpans(bytes: Uint8Array, context: CodeContext): Array<{ name: string; bytes: Uint8Array }> {
  const header = new Reader(bytes);
  const method = readMethod(new Reader(bytes), context);
  // Skip the header again to find where the instructions start: isPublic, modifier, three lengths, count.
  header.u8();
  header.u8();
  header.i32();
  header.i32();
  header.i32();
  header.i32();
  return method.instrs.map(() => {
    const start = header.offset;
    const instr = readInstr(header, context);
    return { name: instr.name, bytes: bytes.subarray(start, header.offset) };
  });
}

/** Compares the VM's decoding of one method with web3's; an empty list means they agree. */
export function compareMethodWithWeb3(
  bytes: Uint8Array,
  context: CodeContext = 'stateful',
): OracleMismatch[] {
  const mismatches: OracleMismatch[] = [];
  const ours = readMethod(new Reader(bytes), context);
  const theirs = codec.methodCodec.decode(bytes);
  const header = [
    'isPublic',
    'usePreapprovedAssets',
    'useContractAssets',
    'usePayToContractOnly',
    'argsLength',
    'localsLength',
    'returnLength',
  ] as const;
  for (const field of header) {
    if (ours[field] !== theirs[field])
      mismatches.push({ instrIndex: -1, what: `${field}: ${ours[field]} vs ${theirs[field]}` });
  }
  if (ours.instrs.length !== theirs.instrs.length) {
    mismatches.push({
      instrIndex: -1,
      what: `instruction count ${ours.instrs.length} vs ${theirs.instrs.length}`,
    });
    return mismatches;
  }
  const spans = instrSpans(bytes, context);
  theirs.instrs.forEach((instr, index) => {
    const mine = ours.instrs[index];
    const span = spans[index];
    if (mine === undefined || span === undefined) return;
    if (mine.name !== instr.name || mine.code !== instr.code) {
      mismatches.push({
        instrIndex: index,
        what: `${mine.name}/${mine.code} vs ${instr.name}/${instr.code}`,
      });
    }
    const reencoded = codec.instrCodec.encode(instr);
    if (bytesToHex(reencoded) !== bytesToHex(span.bytes)) {
      mismatches.push({
        instrIndex: index,
        what: `${mine.name} bytes ${bytesToHex(span.bytes)} vs ${bytesToHex(reencoded)}`,
      });
    }
  });
  return mismatches;
}
