/**
 * The sandbox chain's vocabulary: its constants (groups, gas, fees, deposits), the errors its endpoints answer
 * with, and the records the ledger and the VM share (outputs, transactions, blocks, contracts, accounts),
 * plus the tamper modes that let tests prove verify-before-sign.
 */
import { createHash } from 'node:crypto';
import {
  addressFromContractId,
  addressFromPublicKey,
  bytesToHex,
  groupOfAddress,
  type DecodedUnsignedTx,
} from '../../src/core/protocol';
import { publicKeyFromPrivateKey } from '../../src/core/protocol/keys';
import type { ContractDef, Val } from '../vm/projectContracts';
import type { Assets, Method } from '../vm/scriptCodec';

export const GROUPS = 4;
export const NETWORK_ID = 4; // devnet, as the CLI's default
export const MIN_GAS = 20_000;
export const MAX_GAS = 5_000_000;
export const FEE_CAP = 10n ** 18n; // node's gas-fee-cap default: 1 ALPH
export const MAX_OUTPUTS = 256;
/** Inputs per sweep transaction; more outputs than this make sweep return several transactions. */
export const SWEEP_MAX_INPUTS = 20;
export const GENESIS_ALPH = 1_000_000n * 10n ** 18n;
/** The node's minimal ALPH a contract must hold (0.1 ALPH since Rhone); also the deploy default. */
export const MINIMAL_CONTRACT_DEPOSIT = 10n ** 17n;

/**
 * The event index of Debug events (emit debug!). They take a slot in a contract's event counter but the node
 * hides them from /events/contract and from simulations.
 */
export const DEBUG_EVENT_INDEX = -3;

/** A 400 with the node's kind of detail text. */
export class BadRequest extends Error {}
export class NotFound extends Error {
  constructor(
    message: string,
    readonly resource: string,
  ) {
    super(message);
  }
}

export interface TokenAmount {
  id: string;
  amount: bigint;
}

export interface Utxo {
  hint: number;
  key: string;
  address: string;
  amount: bigint;
  tokens: TokenAmount[];
  lockTime: number;
  message: string;
  txId: string;
}

export interface EventRecord {
  contractAddress: string;
  eventIndex: number;
  fields: Val[];
  txId: string;
  blockHash: string;
  timestamp: number;
}

export interface PendingCall {
  contract: ContractInstance;
  /** The method's name in the artifact, or its index (code without an artifact). */
  method: string | number;
  args: Val[];
  caller: string;
}

export interface TxRecord {
  txId: string;
  fromGroup: number;
  toGroup: number;
  unsigned: DecodedUnsignedTx;
  scriptExecutionOk: boolean;
  contractInputs: { hint: number; key: string }[];
  generatedOutputs: Record<string, unknown>[];
  inputSignatures: string[];
  scriptSignatures: string[];
  /** Keys of the outputs this tx spends (asset inputs). */
  spends: string[];
  /** Asset outputs this tx creates (fixed, then generated). */
  creates: Utxo[];
  call?: PendingCall;
  deploy?: ContractInstance;
  /** A submitted script tx: run when mined, with what the inputs leave for the script. */
  script?: { methods: Method[]; caller: string; provided: Assets };
  block?: Block;
  txIndex?: number;
  events: EventRecord[];
}

export interface Block {
  hash: string;
  timestamp: number;
  chainFrom: number;
  chainTo: number;
  height: number;
  round: number;
  deps: string[];
  txs: TxRecord[];
  nonce: string;
  depStateHash: string;
  txsHash: string;
  target: string;
}

export interface ContractInstance {
  def: ContractDef;
  address: string;
  contractId: string;
  group: number;
  /** The transaction that created it (what a deployments file records as `txId`). */
  deployTxId: string;
  fields: Record<string, Val>;
  alph: bigint;
  tokens: Map<string, bigint>;
  initialStateHash: string;
  /** Current contract output ref (changes whenever the contract's assets move). */
  outputKey: string;
}

export interface Account {
  privateKey: string;
  publicKey: string;
  address: string;
  group: number;
}

const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Deterministic key whose P2PKH address is in `group`: sha256 of a label and a counter.
 * TEST KEYS ONLY: anyone can recompute them; never fund them on a real network.
 */
export function deterministicAccount(label: string, group: number): Account {
  for (let i = 0; ; i++) {
    const privateKey = sha256Hex(`alephium-gateway-sandbox ${label} ${i}`);
    const publicKey = publicKeyFromPrivateKey(privateKey);
    const address = addressFromPublicKey(publicKey);
    if (groupOfAddress(address) === group) return { privateKey, publicKey, address, group };
  }
}

/** The special address system events are logged under: 30 zero bytes, the index byte, the group. */
export function systemEventAddress(eventIndex: number, group: number): string {
  const id = new Uint8Array(32);
  id[30] = eventIndex & 0xff;
  id[31] = group;
  return addressFromContractId(bytesToHex(id));
}

export type TamperMode =
  'none' | 'recipient' | 'amount' | 'extra-output' | 'txid' | 'decode-lies' | ScriptTamperMode;
/** Modes that act on execute-script and deploy-contract builds (the others act on transfers and sweeps). */
export type ScriptTamperMode =
  | 'script-method'
  | 'script-args'
  | 'script-approve'
  | 'script-extra-output'
  | 'deploy-code'
  | 'deploy-fields';
export const SCRIPT_TAMPER_MODES: readonly ScriptTamperMode[] = [
  'script-method',
  'script-args',
  'script-approve',
  'script-extra-output',
  'deploy-code',
  'deploy-fields',
];
export const TAMPER_MODES: readonly TamperMode[] = [
  'none',
  'recipient',
  'amount',
  'extra-output',
  'txid',
  'decode-lies',
  ...SCRIPT_TAMPER_MODES,
];

export interface BuildResult {
  unsignedTx: string;
  gasAmount: number;
  gasPrice: string;
  txId: string;
  fromGroup: number;
  toGroup: number;
}
