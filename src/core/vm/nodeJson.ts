/**
 * Values and contract states in the node's JSON shape (`api/model/Val.scala`, `ContractState` of the
 * node's OpenAPI document): what a gateway returns for `/contracts/{address}/state` and what the VM's
 * results report, so that a replay can feed a gateway's answer straight in.
 */
import { addressFromLockupScript, bytesToHex, hexToBytes, lockupScriptFromAddress } from '../protocol';
import { vAddress, vBool, vByteVec, vI256, vU256, type Val } from './values';

export interface NodeVal {
  readonly type: string;
  readonly value: unknown;
}

export interface NodeToken {
  readonly id: string;
  readonly amount: string;
}

export interface NodeContractState {
  readonly address: string;
  readonly bytecode: string;
  readonly codeHash: string;
  readonly initialStateHash?: string;
  readonly immFields: readonly NodeVal[];
  readonly mutFields: readonly NodeVal[];
  readonly asset: { readonly attoAlphAmount: string; readonly tokens?: readonly NodeToken[] };
}

/** Bool as a JSON boolean, numbers as decimal strings, bytes as hex, addresses in base58. */
export function valToNode(v: Val): NodeVal {
  switch (v.type) {
    case 'Bool':
      return { type: 'Bool', value: v.value };
    case 'I256':
    case 'U256':
      return { type: v.type, value: v.value.toString() };
    case 'ByteVec':
      return { type: 'ByteVec', value: bytesToHex(v.value) };
    case 'Address':
      return { type: 'Address', value: addressFromLockupScript(v.value) };
  }
}

function text(v: NodeVal): string {
  if (typeof v.value === 'string') return v.value;
  if (typeof v.value === 'number' || typeof v.value === 'bigint') return v.value.toString();
  throw new Error(`A ${v.type} value must be a string, got ${JSON.stringify(v.value)}`);
}

/** The inverse of `valToNode`; `Array` values (the node flattens them in states) are refused. */
export function valFromNode(v: NodeVal): Val {
  switch (v.type) {
    case 'Bool':
      if (typeof v.value !== 'boolean') throw new Error('A Bool value must be true or false');
      return vBool(v.value);
    case 'I256':
      return vI256(BigInt(text(v)));
    case 'U256':
      return vU256(BigInt(text(v)));
    case 'ByteVec':
      return vByteVec(hexToBytes(text(v), 'ByteVec value'));
    case 'Address':
      return vAddress(lockupScriptFromAddress(text(v)));
    default:
      throw new Error(`Unsupported value type ${v.type}`);
  }
}
