/**
 * What `emulateTxScript` reports after a run, in the node's JSON shapes: the contracts the run loaded,
 * created or changed (their state after it), the contract events (the node drops a script's own logs,
 * and `debug!` messages are reported apart), the debug messages as the node prints them, and the
 * generated outputs. A failed run changes nothing, so it reports only its gas, its failure and the
 * debug messages written before the failure (the node prints those too).
 */
import {
  addressFromContractId,
  addressFromLockupScript,
  blake2b256,
  bytesToHex,
  hexToBytes,
  lockupScriptFromAddress,
  publicKeyOfUnlockScript,
  type DecodedUnsignedTx,
} from '../protocol';
import type { LogEntry } from './context';
import { DEBUG_EVENT_INDEX } from './instructions/environment';
import type { Outcome } from './machine';
import { valToNode, type NodeVal } from './nodeJson';
import type { StatefulContext } from './statefulContext';
import type { MemoryWorldState } from './worldState';

type Token = { id: string; amount: string };

export interface EmulatedContract {
  address: string;
  contractId: string;
  codeHash: string;
  bytecode: string;
  immFields: NodeVal[];
  mutFields: NodeVal[];
  attoAlphAmount: string;
  tokens: Token[];
  created: boolean;
}

export interface EmulateTxScriptResult {
  ok: boolean;
  error?: string;
  gasUsed: number;
  contracts: EmulatedContract[];
  events: Array<{ contractAddress: string; eventIndex: number; fields: NodeVal[] }>;
  debugMessages: Array<{ contractAddress: string; message: string }>;
  generatedOutputs: Array<{ address: string; attoAlphAmount: string; tokens: Token[] }>;
}

const ZERO_ID = '00'.repeat(32);

/** The lockup of each input: the given address, else the first input's P2PKH signer. */
export function inputLockups(
  tx: DecodedUnsignedTx,
  given?: ReadonlyArray<{ address: string }>,
): Uint8Array[] {
  const firstKey = publicKeyOfUnlockScript(tx.inputs[0]?.unlockScript ?? '');
  const signer = firstKey === undefined ? undefined : Uint8Array.of(0, ...blake2b256(hexToBytes(firstKey)));
  return tx.inputs.map((_, i) => {
    const address = given?.[i]?.address;
    if (address !== undefined) return lockupScriptFromAddress(address);
    if (signer === undefined)
      throw new Error('The first input is not P2PKH: give inputAssets with each input address');
    return signer;
  });
}

const tokensOf = (tokens: ReadonlyArray<readonly [string, bigint]>): Token[] =>
  tokens.map(([id, amount]) => ({ id, amount: amount.toString() }));

function contractsOf(ctx: StatefulContext, world: MemoryWorldState): EmulatedContract[] {
  const ids = [...new Set([...ctx.contractPool.keys(), ...world.changedIds()])];
  return ids.flatMap((contractId) => {
    const record = world.getContract(contractId);
    if (record === undefined) return [];
    return [
      {
        address: addressFromContractId(contractId),
        contractId,
        codeHash: bytesToHex(blake2b256(record.bytecode)),
        bytecode: bytesToHex(record.bytecode),
        immFields: record.immFields.map(valToNode),
        mutFields: record.mutFields.map(valToNode),
        attoAlphAmount: record.asset.alph.toString(),
        tokens: tokensOf(record.asset.tokens),
        created: ctx.createdContracts.has(contractId),
      },
    ];
  });
}

function eventOf(log: LogEntry): EmulateTxScriptResult['events'][number] | undefined {
  const [index, ...fields] = log.fields;
  if (log.contractId === undefined || index?.type !== 'I256' || index.value === DEBUG_EVENT_INDEX)
    return undefined;
  return {
    contractAddress: addressFromContractId(log.contractId),
    eventIndex: Number(index.value),
    fields: fields.map(valToNode),
  };
}

export function resultOf(
  outcome: Outcome,
  ctx: StatefulContext,
  world: MemoryWorldState,
): EmulateTxScriptResult {
  const debugMessages = ctx.debugMessages.map((d) => ({
    contractAddress: addressFromContractId(d.contractId ?? ZERO_ID),
    message: d.message,
  }));
  if (outcome.status !== 'completed') {
    const failure = outcome.status === 'failed' ? outcome.failure : undefined;
    const error =
      failure === undefined
        ? `Aborted`
        : failure.message === failure.failure
          ? failure.failure
          : `${failure.failure}: ${failure.message}`;
    return {
      ok: false,
      error,
      gasUsed: outcome.gasUsed,
      contracts: [],
      events: [],
      debugMessages,
      generatedOutputs: [],
    };
  }
  return {
    ok: true,
    gasUsed: outcome.gasUsed,
    contracts: contractsOf(ctx, world),
    events: ctx.logs.flatMap((log) => eventOf(log) ?? []),
    debugMessages,
    generatedOutputs: ctx.generatedOutputs.map((o) => ({
      address: addressFromLockupScript(o.lockupScript),
      attoAlphAmount: o.alph.toString(),
      tokens: tokensOf(o.tokens),
    })),
  };
}
