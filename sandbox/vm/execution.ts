/**
 * Script execution in the sandbox's VM: a script runs on a staged copy of the contracts it touches
 * ({@link ScriptLedger.runStaged}), which a mined transaction commits and a simulation throws away. Also the
 * call-tx-script and call-contract-with-assets simulations, and the check of a submitted script.
 */
import {
  addressFromContractId,
  blake2b256,
  bytesToHex,
  contractHint,
  groupOfAddress,
  hexToBytes,
  lockupScriptFromAddress,
  outputKey,
  scriptHintOfLockupScript,
} from '../../src/core/protocol';
import { checkAddress, parseIntStrict, parseTokens } from '../ledger/bodyFields';
import {
  BadRequest,
  GROUPS,
  MINIMAL_CONTRACT_DEPOSIT,
  systemEventAddress,
  type Account,
  type ContractInstance,
  type EventRecord,
  type TokenAmount,
  type TxRecord,
  type Utxo,
} from '../ledger/types';
import { ContractLedger, callScriptOf } from './contractState';
import { VmError, type Val } from './sampleContracts';
import {
  NODE_ESTIMATE_PREFIX,
  ScriptRejected,
  ScriptVmError,
  addAssets,
  constInstr,
  decodeScript,
  encodeFields,
  lockupOfAddress as lockupOf,
  noAssets,
  nodeContractId,
  runScript,
  type Assets,
  type CreateSpec,
  type Method,
} from './scriptCodec';
import { codec, hexToBinUnsafe } from '@alephium/web3';

interface StagedClone {
  orig: ContractInstance;
  clone: ContractInstance;
  prevAlph: bigint;
  prevTokens: Map<string, bigint>;
  prevKey: string;
}

/** The working state of one staged script run. */
interface Staging {
  group: number;
  caller: string;
  txId: string;
  fixedOutputCount: number;
  clones: Map<string, StagedClone>;
  assetTouched: string[];
  created: ContractInstance[];
  /** Contract outputs in the order the VM generates them (creation, or the end of a call using assets). */
  order: ContractInstance[];
  transfers: Map<string, Assets>;
  events: EventRecord[];
  debugMessages: { contractAddress: string; message: string }[];
  gas: number;
}

function transferTo(st: Staging, address: string, a: Assets): void {
  let t = st.transfers.get(address);
  if (!t) st.transfers.set(address, (t = noAssets()));
  addAssets(t, a);
}

function contractOutputIndex(st: Staging): number {
  return st.fixedOutputCount + st.order.length;
}

/** What a dry run may pin or add (the node's `txId` and `interestedContracts`). */
export interface SimulationOptions {
  readonly txId?: string | undefined;
  readonly interested?: readonly string[];
}

export type StageResult = ReturnType<ScriptLedger['runStaged']>;

export abstract class ScriptLedger extends ContractLedger {
  /** A mined contract call (control API) or script: run it for real and record its effects on the tx. */
  protected override applyContractEffects(tx: TxRecord): void {
    if (tx.call) {
      const { contract, method, args, caller } = tx.call;
      try {
        const r = this.execute(contract, method, args, caller, true, tx.txId, tx.creates.length);
        tx.events.push(...r.events);
        tx.contractInputs.push({ hint: contractHint(contract.contractId), key: r.previousOutputKey });
        tx.generatedOutputs.push(
          ...r.generated.map((u) => this.assetOutputJson(u)),
          this.contractOutputJson(contract),
        );
        tx.creates.push(...r.generated);
      } catch (e) {
        if (!(e instanceof VmError)) throw e;
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
    return [...stage.clones.values()]
      .map((s) => s.orig)
      .filter((c) => c.def.methods.pause && c.def.methods.unpause && c.fields.paused?.value === false);
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
   * Runs a script on a staged copy of the contracts it touches. Nothing is changed until {@link commitStage}.
   * `txId` and `fixedOutputCount` place generated outputs and new contract ids as the node does.
   */
  runStaged(methods: Method[], caller: string, provided: Assets, txId: string, fixedOutputCount: number) {
    const st: Staging = {
      group: groupOfAddress(caller),
      caller,
      txId,
      fixedOutputCount,
      clones: new Map(),
      assetTouched: [],
      created: [],
      order: [],
      transfers: new Map(),
      events: [],
      debugMessages: [],
      gas: 1_000,
    };
    const run = runScript(
      methods,
      {
        caller,
        callExternal: (contractId, methodIndex, args, returnLength) =>
          this.stagedCall(st, contractId, methodIndex, args, returnLength),
        createContract: (spec: CreateSpec) => this.stagedCreate(st, spec),
        transferAlph: (_from, to, amount) => transferTo(st, to, { alph: amount, tokens: new Map() }),
      },
      provided,
    );
    st.gas += run.instrCount * 10;
    transferTo(st, caller, run.leftover);
    // Generated outputs: contract outputs as the calls finish, then the asset outputs at the end of the tx.
    const contractOutputs = st.order;
    const firstAssetIndex = fixedOutputCount + contractOutputs.length;
    const assetOutputs: Utxo[] = [];
    for (const [address, a] of st.transfers) {
      const tokens = [...a.tokens].filter(([, v]) => v > 0n).map(([id, amount]) => ({ id, amount }));
      if (a.alph === 0n && tokens.length === 0) continue;
      const lockup = lockupScriptFromAddress(address);
      assetOutputs.push({
        hint: scriptHintOfLockupScript(lockup),
        key: outputKey(txId, firstAssetIndex + assetOutputs.length),
        address,
        amount: a.alph,
        tokens,
        lockTime: 0,
        message: '',
        txId,
      });
    }
    return {
      run,
      gas: st.gas,
      clones: st.clones,
      assetTouched: st.assetTouched,
      created: st.created,
      contractOutputs,
      assetOutputs,
      events: st.events,
      debugMessages: st.debugMessages,
    };
  }

  /** The staged copy of a contract (made on first touch), or a contract the script created. */
  private live(st: Staging, id: string): ContractInstance | undefined {
    const staged = st.clones.get(id)?.clone ?? st.created.find((c) => c.contractId === id);
    if (staged) return staged;
    const orig = [...this.contracts.values()].find((c) => c.contractId === id);
    if (!orig) return undefined;
    const clone: ContractInstance = { ...orig, fields: { ...orig.fields }, tokens: new Map(orig.tokens) };
    st.clones.set(id, {
      orig,
      clone,
      prevAlph: orig.alph,
      prevTokens: new Map(orig.tokens),
      prevKey: orig.outputKey,
    });
    return clone;
  }

  /** A script's CallExternal: runs the method on the staged contract and records what it moved. */
  private stagedCall(
    st: Staging,
    contractId: string,
    methodIndex: number,
    args: Val[],
    returnLength: number,
  ): Val[] {
    const c = this.live(st, contractId);
    const address = addressFromContractId(contractId);
    if (!c || c.group !== st.group) throw new ScriptVmError(`NonExistContract(${address})`);
    if (c.def.notExecutable)
      throw new BadRequest(`contract ${c.address}: bytecode not executable in the sandbox`);
    const fn = c.def.artifact.functions[methodIndex];
    const flags = this.flagsOf(c.def)[methodIndex];
    if (!fn || !flags)
      throw new ScriptVmError(`InvalidMethodIndex(${methodIndex}, ${c.def.artifact.functions.length})`);
    if (!flags.isPublic) throw new ScriptVmError(`ExternalPrivateMethodCall(${address}, ${fn.name})`);
    if (returnLength !== fn.returnTypes.length)
      throw new ScriptVmError(
        `InvalidReturnLength(${fn.name}: expected ${fn.returnTypes.length}, got ${returnLength})`,
      );
    const alphBefore = c.alph;
    // execute() moves the contract's output ref when it commits; only a call using the contract's
    // assets generates a new contract output, so the ref is restored otherwise.
    const keyBefore = c.outputKey;
    let r: ReturnType<ScriptLedger['execute']>;
    try {
      r = this.execute(c, methodIndex, args, st.caller, true, st.txId, 0);
    } catch (e) {
      if (e instanceof VmError) throw new ScriptVmError(e.message.replace(/^VM execution error: /, ''));
      throw e;
    }
    c.outputKey = keyBefore;
    st.gas += r.gasUsed;
    st.events.push(...r.events);
    st.debugMessages.push(...r.debugMessages);
    for (const u of r.generated) {
      transferTo(st, u.address, { alph: u.amount, tokens: new Map(u.tokens.map((t) => [t.id, t.amount])) });
    }
    const usedAssets = flags.useContractAssets || c.alph !== alphBefore || r.generated.length > 0;
    if (usedAssets && !st.assetTouched.includes(contractId) && !st.created.includes(c)) {
      c.outputKey = outputKey(st.txId, contractOutputIndex(st));
      st.assetTouched.push(contractId);
      st.order.push(c);
    }
    return r.returns;
  }

  /** A script's createContract!: a new staged contract at the node's id and output index. */
  private stagedCreate(st: Staging, spec: CreateSpec): string {
    const { group, txId } = st;
    const index = contractOutputIndex(st);
    const contractId = nodeContractId(txId, index, group);
    const address = addressFromContractId(contractId);
    if (this.contracts.has(address)) throw new ScriptVmError(`ContractAlreadyExists(${address})`);
    if (spec.initial.alph < MINIMAL_CONTRACT_DEPOSIT)
      throw new ScriptVmError(`LowerThanContractMinimalBalance(${address}, ${spec.initial.alph})`);
    const { def, fields } = this.defForCode(spec.code, spec.immFields, spec.mutFields);
    const tokens = new Map(spec.initial.tokens);
    if (spec.issueTokenAmount !== undefined && spec.issueTokenAmount > 0n) {
      if (spec.issueTokenTo !== undefined)
        transferTo(st, spec.issueTokenTo, {
          alph: 0n,
          tokens: new Map([[contractId, spec.issueTokenAmount]]),
        });
      else tokens.set(contractId, spec.issueTokenAmount);
    }
    const inst: ContractInstance = {
      def,
      address,
      contractId,
      group,
      deployTxId: txId,
      fields,
      alph: spec.initial.alph,
      tokens,
      initialStateHash: bytesToHex(
        blake2b256(hexToBytes(spec.code + encodeFields(spec.immFields) + encodeFields(spec.mutFields))),
      ),
      outputKey: outputKey(txId, index),
    };
    st.created.push(inst);
    st.order.push(inst);
    // Creation costs a base plus the stored bytes, as the VM charges it (order of magnitude).
    st.gas += 32_000 + 10 * (spec.code.length / 2);
    st.events.push(
      this.pendingEvent(
        systemEventAddress(-1, group),
        -1,
        [
          { type: 'Address', value: address },
          { type: 'ByteVec', value: '' },
          { type: 'ByteVec', value: def.artifact.stdInterfaceId ?? '' },
        ],
        txId,
      ),
    );
    return contractId;
  }

  private commitStage(stage: StageResult): void {
    for (const { orig, clone } of stage.clones.values()) {
      orig.fields = clone.fields;
      orig.alph = clone.alph;
      orig.tokens = clone.tokens;
      orig.outputKey = clone.outputKey;
    }
    for (const c of stage.created) {
      this.contracts.set(c.address, c);
      this.codes.set(c.def.artifact.codeHash, c.def.artifact.bytecode);
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
    this.commitStage(stage);
    tx.events.push(...stage.events);
    for (const id of stage.assetTouched) {
      const prev = stage.clones.get(id);
      if (prev) tx.contractInputs.push({ hint: contractHint(id), key: prev.prevKey });
    }
    tx.generatedOutputs.push(
      ...stage.contractOutputs.map((c) => this.contractOutputJson(c)),
      ...stage.assetOutputs.map((u) => this.assetOutputJson(u)),
    );
    tx.creates.push(...stage.assetOutputs);
  }

  private static assetState(address: string, alph: bigint, tokens: Map<string, bigint> | TokenAmount[]) {
    const list = tokens instanceof Map ? [...tokens].map(([id, amount]) => ({ id, amount })) : tokens;
    const t = list.filter((x) => x.amount > 0n).map((x) => ({ id: x.id, amount: String(x.amount) }));
    return { address, attoAlphAmount: String(alph), ...(t.length > 0 ? { tokens: t } : {}) };
  }

  /** The node's SimulationResult: contracts' previous outputs, then every generated output. */
  protected simulationResult(stage: StageResult) {
    return {
      contractInputs: stage.assetTouched.map((id) => {
        const p = stage.clones.get(id) as {
          orig: ContractInstance;
          prevAlph: bigint;
          prevTokens: Map<string, bigint>;
        };
        return ScriptLedger.assetState(p.orig.address, p.prevAlph, p.prevTokens);
      }),
      generatedOutputs: [
        ...stage.contractOutputs.map((c) => ScriptLedger.assetState(c.address, c.alph, c.tokens)),
        ...stage.assetOutputs.map((u) => ScriptLedger.assetState(u.address, u.amount, u.tokens)),
      ],
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
    const touched = [...stage.clones.values()].map((c) => c.clone).concat(stage.created);
    const untouched = (options.interested ?? []).filter((a) => !touched.some((c) => c.address === a));
    return {
      returns: stage.run.returns,
      gasUsed: stage.gas,
      contracts: touched.map((c) => this.contractState(c)).concat(this.statesOf(untouched)),
      txInputs,
      txOutputs: [
        ...stage.contractOutputs.map((c) => this.contractOutputJson(c)),
        ...stage.assetOutputs.map((u) => this.assetOutputJson(u)),
      ],
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
    const fn = c.def.artifact.functions[methodIndex];
    const returnLength = fn?.returnTypes.length ?? 0;
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
    const methods: Method[] = [
      {
        isPublic: true,
        usePreapprovedAssets: approve.length > 0,
        useContractAssets: false,
        usePayToContractOnly: false,
        argsLength: 0,
        localsLength: 0,
        returnLength,
        instrs: [
          ...approve,
          ...args.map((a) => constInstr(a)),
          codec.toU256(BigInt(args.length)),
          codec.toU256(BigInt(returnLength)),
          codec.BytesConst(hexToBinUnsafe(c.contractId)),
          codec.CallExternal(methodIndex),
          codec.Return,
        ],
      },
    ];
    return this.simulateScript(methods, c.group, caller, inputAssets, options);
  }
}
