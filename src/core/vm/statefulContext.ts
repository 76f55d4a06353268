/**
 * What a TxScript run adds to the stateless context (`StatefulContext` in `Context.scala` and the
 * `ContractPool` trait): the world state, the contracts loaded so far (each charged once), which
 * contracts' assets are in use or already flushed, the contract inputs, the balances that will become
 * outputs, the generated outputs, and the lifecycle of contracts (create, destroy, migrate).
 *
 * The end of the run (gas reimbursement, dust cover, caller change, outputs) is in `settlement.ts`.
 */
import { addressFromContractId, addressFromLockupScript, bytesToHex, hexToBytes } from '../protocol';
import type { BalanceState } from './balances';
import { Balances, BalancesPerLockup } from './balances';
import { ContractObject } from './contractObject';
import { ExecutionContext, type ExecutionContextOptions } from './context';
import { isValidMethod, type Contract } from './decode';
import { fail } from './failure';
import { isForkEnabled } from './forks';
import { CONTRACT_STATE_UPDATE_BASE_GAS, TX_INPUT_BASE_GAS, contractLoadGas, scriptBaseGas } from './gas';
import { estimateByteSize, type Val } from './values';
import type { ContractAsset, WorldState } from './worldState';

/** `contractPoolMaxSize` and `contractFieldMaxSize` (`vm/package.scala`): limits before Rhone. */
const CONTRACT_POOL_MAX_SIZE = 16;
const CONTRACT_FIELD_MAX_SIZE = 512;
/** `maximalFieldSize` and the code size limits per fork (`model/package.scala`). */
export const MAXIMAL_FIELD_SIZE = 3 * 1024;
const MAXIMAL_CODE_SIZE = {
  Genesis: 12 * 1024,
  Leman: 4 * 1024,
  Rhone: 32 * 1024,
  Danube: 32 * 1024,
} as const;

export const P2C_PREFIX_HEX = '03';
export const p2cKey = (contractId: string): string => P2C_PREFIX_HEX + contractId;
/** The contract id of a P2C lockup key, or undefined for an asset lockup. */
export const contractIdOfKey = (key: string): string | undefined =>
  key.startsWith(P2C_PREFIX_HEX) && key.length === 66 ? key.slice(2) : undefined;

export interface GeneratedOutput {
  readonly lockupScript: Uint8Array;
  readonly alph: bigint;
  readonly tokens: ReadonlyArray<readonly [string, bigint]>;
  readonly lockTime: bigint;
}

export type AssetStatus =
  { readonly kind: 'using'; readonly balances: BalancesPerLockup } | { readonly kind: 'flushed' };

export interface TokenIssuance {
  readonly amount: bigint;
  /** `IssueTokenAndTransfer`: the asset lockup that receives the new tokens. */
  readonly transferTo?: Uint8Array;
}

export interface StatefulContextOptions extends ExecutionContextOptions {
  readonly worldState: WorldState;
  /** The chain's group (`blockEnv.chainIndex.from`): the last byte of every new contract id. */
  readonly group: number;
  /** How many fixed outputs the tx has: generated outputs are numbered after them. */
  readonly fixedOutputsLength: number;
  /** The caller's assets for a payable entry (inputs less fixed outputs less the gas fee). */
  readonly initialBalances?: Balances;
  readonly gasFee: bigint;
}

export class StatefulContext extends ExecutionContext {
  readonly worldState: WorldState;
  readonly group: number;
  readonly gasFee: bigint;
  readonly outputBalances = new Balances();
  readonly generatedOutputs: GeneratedOutput[] = [];
  readonly contractPool = new Map<string, ContractObject>();
  readonly assetStatus = new Map<string, AssetStatus>();
  readonly contractInputs: Array<{ readonly contractId: string; readonly asset: ContractAsset }> = [];
  readonly createdContracts = new Set<string>();
  /** The tx caller's assets of a payable entry, which fund dust and deposits at the end. */
  txCallerBalance: BalanceState | undefined;
  totalAutoFundDust = 0n;
  gasFeePaid = 0n;
  private readonly blocked = new Set<string>();
  private readonly assetUsedSinceRhone = new Set<string>();
  private readonly fixedOutputsLength: number;
  private readonly initialBalances: Balances | undefined;
  private poolFieldCount = 0;

  constructor(options: StatefulContextOptions) {
    super(options);
    this.worldState = options.worldState;
    this.group = options.group;
    this.gasFee = options.gasFee;
    this.fixedOutputsLength = options.fixedOutputsLength;
    this.initialBalances = options.initialBalances;
  }

  get nextOutputIndex(): number {
    return this.fixedOutputsLength + this.generatedOutputs.length;
  }

  /** `getInitialBalances`: only a tx with a payable entry method has them. */
  takeInitialBalances(): Balances {
    return this.initialBalances ?? fail('ExpectNonPayableMethod');
  }

  isTxCaller(lockupKey: string): boolean {
    return this.txEnv.prevOutputs.some((o) => bytesToHex(o.lockupScript) === lockupKey);
  }

  /** `getUniqueTxInputAddress`: `callerAddress!()` in a script needs one input address only. */
  uniqueTxInputAddress(): Uint8Array {
    if (!isForkEnabled(this.hardFork, 'Leman'))
      fail('PartiallyActiveInstr', 'PartiallyActiveInstr(CallerAddress)');
    const inputs = this.txEnv.prevOutputs;
    this.chargeGas(3 + inputs.length);
    const first = inputs[0] ?? fail('NoTxInput');
    const firstHex = bytesToHex(first.lockupScript);
    if (inputs.every((o) => bytesToHex(o.lockupScript) === firstHex)) return first.lockupScript;
    const addresses = [...new Set(inputs.map((o) => addressFromLockupScript(o.lockupScript)))];
    fail(
      'TxInputAddressesAreNotIdentical',
      `Tx input addresses are not identical for \`callerAddress\` function: ${addresses.join(', ')}`,
    );
  }

  firstTxInputLockup(): Uint8Array {
    return this.txEnv.prevOutputs[0]?.lockupScript ?? fail('InvalidTxInputIndex', 'Invalid tx input index 0');
  }

  // ---- gas of sizes (CostStrategy) ----

  chargeFieldSize(fields: readonly Val[]): void {
    const size = fields.reduce((n, v) => n + estimateByteSize(v), 0);
    if (size >= MAXIMAL_FIELD_SIZE) fail('FieldsSizeTooLarge', `FieldsSizeTooLarge(${size})`);
    this.chargeGas(size);
  }

  chargeContractCodeSize(byteLength: number): void {
    const max = MAXIMAL_CODE_SIZE[this.hardFork];
    if (byteLength > max) fail('CodeSizeTooLarge', `CodeSizeTooLarge(${byteLength},${max})`);
    this.chargeGas(scriptBaseGas(byteLength));
  }

  // ---- the contract pool (ContractPool.scala) ----

  loadContract(contractId: string): ContractObject {
    const pooled = this.contractPool.get(contractId);
    if (pooled !== undefined) return pooled;
    if (isForkEnabled(this.hardFork, 'Leman') && this.blocked.has(contractId)) {
      fail('ContractLoadDisallowed', `ContractLoadDisallowed(${contractId})`);
    }
    const obj = this.objectFromWorld(contractId);
    this.chargeGas(contractLoadGas(obj.estimateLoadByteSize()));
    this.addToPool(contractId, obj);
    return obj;
  }

  private objectFromWorld(contractId: string): ContractObject {
    const record = this.worldState.getContract(contractId);
    if (record === undefined)
      fail('NonExistContract', `Contract ${addressFromContractId(contractId)} does not exist`);
    return new ContractObject(
      hexToBytes(contractId),
      record.bytecode,
      record.immFields,
      record.mutFields,
      record.initialStateHash,
    );
  }

  private addToPool(contractId: string, obj: ContractObject): void {
    this.poolFieldCount += obj.immFields.length + obj.mutFields.length;
    if (!isForkEnabled(this.hardFork, 'Rhone')) {
      if (this.contractPool.size >= CONTRACT_POOL_MAX_SIZE) fail('ContractPoolOverflow');
      if (this.poolFieldCount > CONTRACT_FIELD_MAX_SIZE) fail('ContractFieldOverflow');
    }
    this.contractPool.set(contractId, obj);
  }

  private blockLoad(contractId: string): void {
    if (isForkEnabled(this.hardFork, 'Leman')) this.blocked.add(contractId);
  }

  /** Rhone (not Danube) keeps a new contract loaded and its assets flushed; Leman only blocks it. */
  private cacheNewContract(contractId: string): void {
    if (isForkEnabled(this.hardFork, 'Danube')) return;
    if (isForkEnabled(this.hardFork, 'Rhone')) {
      this.addToPool(contractId, this.objectFromWorld(contractId));
      this.assetStatus.set(contractId, { kind: 'flushed' });
    }
    this.blockLoad(contractId);
  }

  /** `updateContractStates`: every loaded contract whose mutable fields changed pays and is written. */
  updateContractStates(): void {
    for (const [contractId, obj] of this.contractPool) {
      if (!obj.isUpdated) continue;
      this.chargeGas(CONTRACT_STATE_UPDATE_BASE_GAS);
      this.chargeFieldSize(obj.mutFields);
      const record = this.worldState.getContract(contractId);
      if (record !== undefined) this.worldState.putContract({ ...record, mutFields: [...obj.mutFields] });
    }
  }

  // ---- contract assets ----

  useContractAssets(contractId: string, methodIndex: number): BalancesPerLockup {
    if (!isForkEnabled(this.hardFork, 'Rhone')) return this.loadContractAssets(contractId);
    const key = `${contractId}:${methodIndex}`;
    if (this.assetUsedSinceRhone.has(key)) {
      fail(
        'FunctionReentrancy',
        `The ${methodIndex}-th function in the contract (@${addressFromContractId(contractId)}) is called twice and uses contract assets twice, which is not allowed due to reentrancy protection!`,
      );
    }
    this.assetUsedSinceRhone.add(key);
    const status = this.assetStatus.get(contractId);
    if (status?.kind === 'using') return status.balances;
    if (status?.kind === 'flushed') fail('ContractAssetAlreadyFlushed');
    return this.loadContractAssets(contractId);
  }

  prepareForPayToContractOnly(contractId: string): void {
    const status = this.assetStatus.get(contractId);
    if (status === undefined) this.loadContractAssets(contractId);
    else if (status.kind === 'flushed') fail('ContractAssetAlreadyFlushed');
  }

  private loadContractAssets(contractId: string): BalancesPerLockup {
    this.chargeGas(TX_INPUT_BASE_GAS);
    const record = this.worldState.getContract(contractId);
    if (record === undefined)
      fail('NonExistContract', `Contract ${addressFromContractId(contractId)} does not exist`);
    this.contractInputs.push({ contractId, asset: record.asset });
    const balances = BalancesPerLockup.of(record.asset.alph, record.asset.tokens);
    const status = this.assetStatus.get(contractId);
    if (status?.kind === 'using') {
      fail(
        'ContractAssetAlreadyInUsing',
        'Contract assets can only be loaded once per transaction, to prevent reentrancy attacks! Rhone upgrade will support method-level reentrancy protection.',
      );
    }
    if (status?.kind === 'flushed') fail('ContractAssetAlreadyFlushed');
    this.assetStatus.set(contractId, { kind: 'using', balances });
    return balances;
  }

  markAssetFlushed(contractId: string): void {
    const status = this.assetStatus.get(contractId);
    if (status === undefined) fail('ContractAssetUnloaded', unloadedText(contractId));
    if (status.kind === 'flushed') fail('ContractAssetAlreadyFlushed');
    this.assetStatus.set(contractId, { kind: 'flushed' });
  }

  // ---- lifecycle ----

  /** `createContract`: the new contract's output is generated at once, with what it was given. */
  createContract(
    contractId: string,
    bytecode: Uint8Array,
    contract: Contract,
    immFields: readonly Val[],
    balances: BalancesPerLockup,
    mutFields: readonly Val[],
    issuance: TokenIssuance | undefined,
  ): void {
    if (issuance !== undefined) {
      if (issuance.transferTo !== undefined) {
        this.outputBalances.addToken(bytesToHex(issuance.transferTo), contractId, issuance.amount);
      } else {
        balances.addToken(contractId, issuance.amount);
      }
    }
    const tokens = balances.tokenVector();
    if (this.worldState.getContract(contractId) !== undefined) {
      fail('ContractAlreadyExists', `Contract ${addressFromContractId(contractId)} already exists`);
    }
    if (immFields.length + mutFields.length !== contract.fieldLength) fail('InvalidFieldLength');
    const asset = { alph: balances.alph, tokens };
    this.worldState.putContract({ contractId, bytecode, immFields, mutFields, asset });
    this.createdContracts.add(contractId);
    this.generatedOutputs.push({
      lockupScript: hexToBytes(p2cKey(contractId)),
      alph: asset.alph,
      tokens,
      lockTime: 0n,
    });
    this.cacheNewContract(contractId);
  }

  destroyContract(contractId: string, assets: BalancesPerLockup, refundLockup: Uint8Array): void {
    if (!this.outputBalances.add(bytesToHex(refundLockup), assets)) fail('InvalidBalances');
    this.worldState.removeContract(contractId);
    this.markAssetFlushed(contractId);
    this.contractPool.delete(contractId);
  }

  migrateContract(
    obj: ContractObject,
    bytecode: Uint8Array,
    contract: Contract,
    newImm?: readonly Val[],
    newMut?: readonly Val[],
  ): void {
    const immFields = newImm ?? obj.immFields;
    const mutFields = newMut ?? obj.mutFields;
    this.checkContract(contract);
    this.checkAssetsModifier(contract);
    if (immFields.length + mutFields.length !== contract.fieldLength) fail('InvalidFieldLength');
    this.chargeFieldSize([...immFields, ...mutFields]);
    const record = this.worldState.getContract(obj.contractIdHex);
    const asset = record?.asset ?? { alph: 0n, tokens: [] };
    this.worldState.putContract({
      contractId: obj.contractIdHex,
      bytecode,
      immFields,
      mutFields: [...mutFields],
      asset,
    });
    this.blockLoad(obj.contractIdHex);
    this.contractPool.delete(obj.contractIdHex);
  }

  /** `StatefulContract.check`. */
  checkContract(contract: Contract): void {
    if (contract.fieldLength < 0) fail('InvalidFieldLength');
    if (isForkEnabled(this.hardFork, 'Leman') && contract.fieldLength > 0xff) fail('TooManyFields');
    if (contract.methods.length === 0) fail('EmptyMethods');
    if (!contract.methods.every(isValidMethod)) fail('InvalidMethod');
  }

  /** `checkAssetsModifier`: which modifier combinations each fork accepts. */
  checkAssetsModifier(contract: Contract): void {
    for (const m of contract.methods) {
      if (isForkEnabled(this.hardFork, 'Rhone')) {
        if (m.useContractAssets && m.usePayToContractOnly) fail('InvalidMethodModifierSinceRhone');
      } else if (m.usePayToContractOnly) {
        fail('InvalidMethodModifierBeforeRhone');
      }
      if (!isForkEnabled(this.hardFork, 'Leman') && m.usePreapprovedAssets !== m.useContractAssets) {
        fail('InvalidMethodModifierBeforeLeman');
      }
    }
  }

  /** A system event (contract created or destroyed) is logged whatever the log config says. */
  writeSystemLog(contractId: string, fields: readonly Val[]): void {
    this.writeLog(contractId, fields);
  }
}

export function unloadedText(contractId: string): string {
  return `Assets for contract ${addressFromContractId(contractId)} is not loaded, please annotate the function with \`@using(assetsInContract = true)\``;
}
