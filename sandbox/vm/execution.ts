/**
 * Script execution in the sandbox: every script and contract call runs on the project's VM (`vmRun.ts`)
 * against the contracts as they are, and hands back a stage, which a mined transaction commits and a
 * simulation throws away ({@link ScriptLedger.runStaged}). Also the call-tx-script and call-contract
 * simulations, the sandbox's own contract txs, and the check of a submitted script.
 */
import {
  DEFAULT_GAS_PRICE,
  blake2b256,
  bytesToHex,
  contractHint,
  groupOfAddress,
  hexToBytes,
  isValidAddress,
  lockupScriptFromAddress,
  outputKey,
  scriptHintOfLockupScript,
} from '../../src/core/protocol';
import { checkPrimitive, isPrimitiveType } from '../../src/core/artifacts';
import { checkAddress, parseIntStrict, parseTokens } from '../ledger/bodyFields';
import {
  BadRequest,
  GROUPS,
  MAX_GAS,
  type Account,
  type ContractInstance,
  type TokenAmount,
  type TxRecord,
  type Utxo,
} from '../ledger/types';
import { ContractLedger, callScriptOf } from './contractState';
import { VmError, checkVal, type Val } from './projectContracts';
import {
  NODE_ESTIMATE_PREFIX,
  ScriptRejected,
  ScriptVmError,
  addAssets,
  contractMethods,
  decodeScript,
  encodeScript,
  externalCall,
  lockupOfAddress as lockupOf,
  mainMethod,
  noAssets,
  type Assets,
  type Method,
} from './scriptCodec';
import { runOnVm, type Stage, type VmHost } from './vmRun';
import { codec, hexToBinUnsafe } from '@alephium/web3';

/** What a dry run may pin or add (the node's `txId` and `interestedContracts`). */
export interface SimulationOptions {
  readonly txId?: string | undefined;
  readonly interested?: readonly string[];
}

export type StageResult = Stage;

/**
 * The sandbox's own contract txs (the event ticker, the control API's calls, a race's pause) have no
 * inputs, but the VM needs the caller's ALPH wherever a token comes to it (an output holds 0.001 ALPH of
 * dust). The caller is lent this much for the run and its ALPH-only change is dropped: the dust of the
 * token outputs it receives is new ALPH, as the faucet's dust was.
 */
const CALL_LOAN = 10n ** 18n;

export abstract class ScriptLedger extends ContractLedger {
  /** A mined contract call (control API) or script: run it for real and record its effects on the tx. */
  protected override applyContractEffects(tx: TxRecord): void {
    if (tx.call) {
      const { contract, method, args, caller } = tx.call;
      try {
        const methods = this.callMethods(contract, method, args);
        const stage = this.lentRun(methods, caller, tx.txId, tx.creates.length);
        this.applyStage(tx, stage);
      } catch (e) {
        // A call that fails when its block is mined (the state moved since it was queued) is kept as failed.
        if (!(e instanceof ScriptVmError) && !(e instanceof VmError)) throw e;
        tx.scriptExecutionOk = false;
      }
    }
    if (tx.script) this.applyScript(tx, tx.script);
  }

  /**
   * `fail-in-block`: for each script tx of the round (while the count lasts) that would run now and calls a
   * contract its owner can pause (Counter), the owner pauses it in a round before and unpauses it in a round
   * after. The script then really fails in its block, on `assert!(!paused, ErrorCodes.Paused)`, and the
   * state just before its block says why. A script that calls nothing pausable runs as usual and leaves the
   * count to the next one.
   */
  protected override planRace(pending: readonly TxRecord[]) {
    const before: TxRecord[] = [];
    const after: TxRecord[] = [];
    const paused = new Set<string>();
    for (const tx of pending) {
      if (this.scriptsToFailInBlock === 0) break;
      const targets = tx.script ? this.pausableContractsOf(tx, tx.script) : [];
      if (targets.length === 0) continue;
      this.scriptsToFailInBlock--;
      for (const c of targets.filter((t) => !paused.has(t.address))) {
        paused.add(c.address);
        before.push(this.ownerCall(c, 'pause'));
        after.push(this.ownerCall(c, 'unpause'));
      }
    }
    return before.length > 0 ? { before, after } : undefined;
  }

  /** The unpaused, pausable contracts a script would call if it ran now (none if it fails anyway). */
  private pausableContractsOf(tx: TxRecord, script: NonNullable<TxRecord['script']>): ContractInstance[] {
    let stage: StageResult;
    try {
      stage = this.runStaged(script.methods, script.caller, script.provided, tx.txId, tx.creates.length);
    } catch (e) {
      if (e instanceof ScriptVmError || e instanceof BadRequest || e instanceof ScriptRejected) return [];
      throw e;
    }
    const pausable = (c: ContractInstance) =>
      ['pause', 'unpause'].every((m) => c.def.artifact.functions.some((f) => f.name === m));
    return stage.touched.filter((c) => pausable(c) && c.fields.paused?.value === false);
  }

  /** A call by the contract's owner, mined as a contract tx of its group (what the control API queues). */
  private ownerCall(c: ContractInstance, method: string): TxRecord {
    const tx = this.scriptTx(c.group, `race ${method} ${c.address}`, callScriptOf(c, method, []));
    tx.call = { contract: c, method, args: [], caller: String(c.fields.owner?.value) };
    return tx;
  }

  protected override checkSubmittedScript(
    scriptHex: string,
    caller: string,
    provided: Assets,
    txId: string,
    fixedOutputCount: number,
  ): Method[] {
    const methods = this.scriptOr400(scriptHex, 'scriptOpt');
    try {
      this.runStaged(methods, caller, provided, txId, fixedOutputCount);
    } catch (e) {
      if (e instanceof ScriptVmError) throw new BadRequest(`TxScriptExeFailed(${e.message})`);
      if (e instanceof ScriptRejected) throw new BadRequest(e.message);
      throw e;
    }
    return methods;
  }

  protected scriptOr400(hex: unknown, field: string): Method[] {
    try {
      return decodeScript(hex, field);
    } catch (e) {
      if (e instanceof ScriptRejected) throw new BadRequest(e.message);
      throw e;
    }
  }

  /**
   * Runs a script on the VM against the contracts as they are; nothing is changed until
   * {@link commitStage}. `txId` and `fixedOutputCount` place generated outputs and new contract ids as the
   * node does. A VM failure throws {@link ScriptVmError}.
   */
  runStaged(
    methods: Method[],
    caller: string,
    provided: Assets,
    txId: string,
    fixedOutputCount: number,
    gasAmount = MAX_GAS,
  ): StageResult {
    return runOnVm(this.vmHost(), {
      script: hexToBytes(encodeScript(methods)),
      caller,
      provided,
      txId,
      fixedOutputCount,
      gasAmount,
      gasPrice: DEFAULT_GAS_PRICE,
    });
  }

  private vmHost(): VmHost {
    return {
      contracts: this.contracts,
      stateOf: (c) => this.contractState(c),
      defForCode: (code, imm, mut) => this.defForCode(code, imm, mut),
      pendingEvent: (address, index, fields, txId) => this.pendingEvent(address, index, fields, txId),
      now: () => this.clock.now(),
    };
  }

  private readonly methodsByCode = new Map<string, Method[]>();

  /** The methods of a contract's code, decoded once per code. */
  private methodsOf(c: ContractInstance): Method[] {
    const code = c.def.artifact.bytecode;
    let methods = this.methodsByCode.get(code);
    if (!methods) this.methodsByCode.set(code, (methods = contractMethods(code)));
    return methods;
  }

  /**
   * A sandbox contract tx's run: the caller is lent {@link CALL_LOAN}, repaid from its ALPH-only change
   * (what a method paid it stays), and the outputs left are numbered again without gaps.
   */
  private lentRun(methods: Method[], caller: string, txId: string, fixedOutputCount: number): StageResult {
    const stage = this.runStaged(
      methods,
      caller,
      { alph: CALL_LOAN, tokens: new Map() },
      txId,
      fixedOutputCount,
    );
    let owed = CALL_LOAN;
    const outputs = stage.outputs.filter((o) => {
      if (owed === 0n || o.kind !== 'asset' || o.u.address !== caller || o.u.tokens.length > 0) return true;
      const repaid = o.u.amount < owed ? o.u.amount : owed;
      owed -= repaid;
      o.u.amount -= repaid;
      return o.u.amount > 0n;
    });
    outputs.forEach((o, i) => {
      const key = outputKey(txId, fixedOutputCount + i);
      if (o.kind === 'contract') o.c.outputKey = key;
      else o.u.key = key;
    });
    return { ...stage, outputs };
  }

  /**
   * A contract call as a script: the arguments, `CallExternal`, and its returns as the script's. Payable,
   * as a compiled TxScript is by default: the caller's assets are the script's, so a token the method sends
   * the caller finds its dust there.
   */
  protected callMethods(
    c: ContractInstance,
    methodRef: string | number,
    args: Val[],
    approve: Method['instrs'] = [],
  ): Method[] {
    const fns = c.def.artifact.functions;
    const methodIndex =
      typeof methodRef === 'number' ? methodRef : fns.findIndex((f) => f.name === methodRef);
    const count = this.methodsOf(c).length;
    // A method index is one byte of the script; the VM names one past the code's methods itself.
    if (!Number.isInteger(methodIndex) || methodIndex < 0 || methodIndex > 255)
      throw new VmError(
        `VM execution error: Invalid method index ${String(methodRef)}, method length: ${count}`,
      );
    args.forEach((a, i) => {
      const problem = valProblem(a);
      if (problem) throw new VmError(`VM execution error: Invalid argument ${i}: ${problem}`);
    });
    // The code's own method header says how many values come back (code without an artifact too).
    const returnLength = this.methodsOf(c)[methodIndex]?.returnLength ?? 0;
    return [
      mainMethod(
        [...approve, ...externalCall(c.contractId, methodIndex, args, returnLength), codec.Return],
        returnLength,
      ),
    ];
  }

  /**
   * A contract call: with commit=false (call-contract, the check before queueing) nothing is kept. A VM
   * failure throws {@link VmError} in the node's words.
   */
  execute(c: ContractInstance, methodRef: string | number, args: Val[], caller: string, txId?: string) {
    if (!isValidAddress(caller)) throw new VmError(`VM execution error: Invalid caller address ${caller}`);
    const methods = this.callMethods(c, methodRef, args);
    const id = txId ?? bytesToHex(blake2b256(new TextEncoder().encode(`call ${this.nonceCounter++}`)));
    try {
      return this.lentRun(methods, caller, id, 0);
    } catch (e) {
      if (e instanceof ScriptVmError) throw new VmError(`VM execution error: ${e.message}`);
      throw e;
    }
  }

  /** Queues a contract call as a transaction (mined with the next block). Runs it once first. */
  queueCall(
    c: ContractInstance,
    method: string | number,
    args: Val[],
    caller: string,
  ): { tx: TxRecord; returns: Val[] } {
    const dry = this.execute(c, method, args, caller);
    const fns = c.def.artifact.functions;
    const name = typeof method === 'number' ? (fns[method]?.name ?? String(method)) : method;
    // The script a client would send (as the compiler writes it) where the artifact names the method; the
    // one that runs otherwise.
    const known = fns.some((f) => f.name === name);
    const script = known ? callScriptOf(c, name, args) : encodeScript(this.callMethods(c, method, args));
    const tx = this.scriptTx(c.group, `call ${c.address} ${name}`, script);
    tx.call = { contract: c, method: known ? name : method, args, caller };
    this.mempool.push(tx);
    return { tx, returns: dry.returns };
  }

  private commitStage(stage: StageResult): void {
    for (const address of stage.removed) this.contracts.delete(address);
    for (const [address, next] of stage.updated) {
      const orig = this.contracts.get(address);
      if (!orig) continue;
      orig.def = next.def;
      orig.fields = next.fields;
      orig.alph = next.alph;
      orig.tokens = next.tokens;
      orig.outputKey = next.outputKey;
    }
    // Created contracts, and migrated ones (new code under the same address), serve their code by hash.
    for (const c of [...stage.created, ...stage.updated.values()])
      this.codes.set(c.def.artifact.codeHash, c.def.artifact.bytecode);
    for (const c of stage.created) this.contracts.set(c.address, c);
  }

  /** What a run leaves on its mined tx: state, events, contract inputs, generated outputs, new UTXOs. */
  private applyStage(tx: TxRecord, stage: StageResult): void {
    const prevKeys = stage.contractInputs.map((c) => ({
      hint: contractHint(c.contractId),
      key: c.outputKey,
    }));
    this.commitStage(stage);
    tx.events.push(...stage.events);
    tx.contractInputs.push(...prevKeys);
    for (const o of stage.outputs) {
      if (o.kind === 'contract')
        tx.generatedOutputs.push(this.contractOutputJson(this.contracts.get(o.c.address) ?? o.c));
      else {
        tx.generatedOutputs.push(this.assetOutputJson(o.u));
        tx.creates.push(o.u);
      }
    }
  }

  /** Mining a submitted script tx: run it for real; a VM failure keeps the fee and returns the rest. */
  private applyScript(tx: TxRecord, script: NonNullable<TxRecord['script']>): void {
    let stage: StageResult;
    try {
      stage = this.runStaged(script.methods, script.caller, script.provided, tx.txId, tx.creates.length);
    } catch (e) {
      if (!(e instanceof ScriptVmError) && !(e instanceof BadRequest) && !(e instanceof ScriptRejected))
        throw e;
      // The node keeps a failed script tx (and its fee); the sandbox returns what the script would have
      // used to the signer so no funds vanish.
      tx.scriptExecutionOk = false;
      const lockup = lockupScriptFromAddress(script.caller);
      const back: Utxo = {
        hint: scriptHintOfLockupScript(lockup),
        key: outputKey(tx.txId, tx.creates.length),
        address: script.caller,
        amount: script.provided.alph,
        tokens: [...script.provided.tokens].map(([id, amount]) => ({ id, amount })),
        lockTime: 0,
        message: '',
        txId: tx.txId,
      };
      if (back.amount > 0n || back.tokens.length > 0) {
        tx.generatedOutputs.push(this.assetOutputJson(back));
        tx.creates.push(back);
      }
      return;
    }
    this.applyStage(tx, stage);
  }

  private static assetState(address: string, alph: bigint, tokens: Map<string, bigint> | TokenAmount[]) {
    const list = tokens instanceof Map ? [...tokens].map(([id, amount]) => ({ id, amount })) : tokens;
    const t = list.filter((x) => x.amount > 0n).map((x) => ({ id: x.id, amount: String(x.amount) }));
    return { address, attoAlphAmount: String(alph), ...(t.length > 0 ? { tokens: t } : {}) };
  }

  /** The node's SimulationResult: contracts' previous outputs, then every generated output. */
  protected simulationResult(stage: StageResult) {
    return {
      contractInputs: stage.contractInputs.map((c) => ScriptLedger.assetState(c.address, c.alph, c.tokens)),
      generatedOutputs: stage.outputs.map((o) =>
        o.kind === 'contract'
          ? ScriptLedger.assetState(o.c.address, o.c.alph, o.c.tokens)
          : ScriptLedger.assetState(o.u.address, o.u.amount, o.u.tokens),
      ),
    };
  }

  protected static estimateError(e: unknown): unknown {
    if (e instanceof ScriptVmError) return new BadRequest(`${NODE_ESTIMATE_PREFIX}${e.message}`);
    if (e instanceof ScriptRejected) return new BadRequest(e.message);
    return e;
  }

  /**
   * call-tx-script and call-contract with inputAssets: the script runs on staged state and nothing is
   * kept. The caller's input assets are what the script may approve.
   */
  protected callerOf(group: number, callerRaw: unknown): string {
    const caller =
      callerRaw === undefined || callerRaw === null
        ? (this.accounts[group] as Account).address
        : checkAddress(callerRaw, 'callerAddress');
    if (groupOfAddress(caller) !== group)
      throw new BadRequest(`Invalid value for: body (callerAddress ${caller} is not in group ${group})`);
    return caller;
  }

  /** The caller's input assets (TestInputAsset[]); the sandbox simulates those of the caller only. */
  protected inputAssetsOf(caller: string, inputAssets: unknown): { provided: Assets; txInputs: string[] } {
    const provided = noAssets();
    const txInputs: string[] = [];
    if (inputAssets === undefined || inputAssets === null) return { provided, txInputs };
    if (!Array.isArray(inputAssets))
      throw new BadRequest('Invalid value for: body (inputAssets must be an array)');
    inputAssets.forEach((raw: unknown, i) => {
      const ia = (raw ?? {}) as Record<string, unknown>;
      const address = checkAddress(ia.address, `inputAssets[${i}].address`);
      if (address !== caller)
        throw new BadRequest(
          `inputAssets[${i}].address ${address}: the sandbox simulates input assets of the caller ${caller} only`,
        );
      const asset = (ia.asset ?? {}) as Record<string, unknown>;
      addAssets(provided, {
        alph: parseIntStrict(asset.attoAlphAmount, `inputAssets[${i}].asset.attoAlphAmount`),
        tokens: parseTokens(asset.tokens, `inputAssets[${i}].asset.tokens`),
      });
      if (!txInputs.includes(address)) txInputs.push(address);
    });
    return { provided, txInputs };
  }

  /**
   * A script dry run. `txId` is the one the script sees (the node picks a random one); `interested`
   * contracts are reported in `contracts` as well as those the script touched or created.
   */
  simulateScript(
    methods: Method[],
    group: number,
    callerRaw: unknown,
    inputAssets: unknown,
    options: SimulationOptions = {},
  ) {
    const caller = this.callerOf(group, callerRaw);
    const { provided, txInputs } = this.inputAssetsOf(caller, inputAssets);
    const txId =
      options.txId ?? bytesToHex(blake2b256(new TextEncoder().encode(`simulation ${this.nonceCounter++}`)));
    const stage = this.runStaged(methods, caller, provided, txId, 0);
    const after = (c: ContractInstance) => stage.updated.get(c.address) ?? c;
    const touched = stage.touched.map(after).concat(stage.created);
    const untouched = (options.interested ?? []).filter((a) => !touched.some((c) => c.address === a));
    return {
      returns: stage.returns,
      gasUsed: stage.gas,
      contracts: touched.map((c) => this.contractState(c)).concat(this.statesOf(untouched)),
      txInputs,
      txOutputs: stage.outputs.map((o) =>
        o.kind === 'contract' ? this.contractOutputJson(o.c) : this.assetOutputJson(o.u),
      ),
      events: this.simulatedEvents(stage.events, group),
      debugMessages: stage.debugMessages,
    };
  }

  callTxScript(body: Record<string, unknown>, options: SimulationOptions = {}) {
    const group = body.group;
    if (typeof group !== 'number' || !Number.isInteger(group) || group < 0 || group >= GROUPS)
      throw new BadRequest('Invalid value for: body (group must be an integer 0..3)');
    const methods = this.scriptOr400(body.bytecode, 'bytecode');
    try {
      return this.simulateScript(methods, group, body.callerAddress, body.inputAssets, options);
    } catch (e) {
      throw ScriptLedger.estimateError(e);
    }
  }

  /** call-contract with inputAssets, as the node runs it: a script approving the assets, then the call. */
  callWithAssets(
    c: ContractInstance,
    methodIndex: number,
    args: Val[],
    caller: unknown,
    inputAssets: unknown,
    options: SimulationOptions = {},
  ) {
    const callerAddress = this.callerOf(c.group, caller);
    const { provided } = this.inputAssetsOf(callerAddress, inputAssets);
    // Everything the caller brings is approved, ALPH first, as the node's mockup script does.
    const approve: Method['instrs'] = [];
    if (provided.alph > 0n)
      approve.push(
        codec.AddressConst(lockupOf(callerAddress)),
        codec.toU256(provided.alph),
        codec.ApproveAlph,
      );
    for (const [id, amount] of provided.tokens)
      approve.push(
        codec.AddressConst(lockupOf(callerAddress)),
        codec.BytesConst(hexToBinUnsafe(id)),
        codec.toU256(amount),
        codec.ApproveToken,
      );
    const methods = this.callMethods(c, methodIndex, args, approve);
    return this.simulateScript(methods, c.group, caller, inputAssets, options);
  }
}

/**
 * What is wrong with a value of a call's arguments before it is encoded: its shape (the sandbox's check),
 * then its range and address form (the core's one check of values against their types).
 */
function valProblem(v: Val): string | undefined {
  const shape = checkVal(v, typeof v === 'object' && v !== null ? String(v.type) : '');
  if (shape) return shape;
  if (!isPrimitiveType(v.type) || checkPrimitive(v.type, v.value).ok) return undefined;
  return v.type === 'Address'
    ? `not an address: ${String(v.value).slice(0, 64)}`
    : `${v.type} value out of range`;
}
