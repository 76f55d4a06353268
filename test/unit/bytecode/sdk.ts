/**
 * Our instruction objects in the SDK codec's shape (and back), so @alephium/web3's codec can encode
 * the same instructions independently.
 */
import { codec } from '@alephium/web3';
import type { Instr } from '../../../src/core/bytecode';

export type SdkInstr = codec.Instr;
export const sdkLockup = codec.lockupScript.lockupScriptCodec;

function bytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

export function toSdkInstr(i: Instr): SdkInstr {
  switch (i.name) {
    case 'U256Const':
      return codec.U256Const(i.value);
    case 'I256Const':
      return codec.I256Const(i.value);
    case 'BytesConst':
      return codec.BytesConst(bytes(i.value));
    case 'AddressConst':
      return codec.AddressConst(sdkLockup.decode(bytes(i.value)));
    case 'CallLocal':
      return codec.CallLocal(i.index);
    case 'CallExternal':
      return codec.CallExternal(i.index);
    case 'LoadLocal':
      return codec.LoadLocal(i.index);
    case 'StoreLocal':
      return codec.StoreLocal(i.index);
    case 'Other':
      // Decode the raw bytes with the SDK: an independent reading of the opcode and its operand.
      return codec.instrCodec.decode(bytes(i.code.toString(16).padStart(2, '0') + i.operand));
    default: {
      const sdk = (codec as unknown as Record<string, SdkInstr>)[i.name];
      if (!sdk || typeof sdk !== 'object') throw new Error(`the SDK codec has no instruction ${i.name}`);
      return sdk;
    }
  }
}

export function sdkScriptHex(methods: readonly codec.Method[]): string {
  return Buffer.from(codec.script.scriptCodec.encode({ methods: [...methods] })).toString('hex');
}

export function sdkInstrHex(i: SdkInstr): string {
  return Buffer.from(codec.instrCodec.encode(i)).toString('hex');
}

export function hexOf(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}
