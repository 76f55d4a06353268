/**
 * Contract state in the sandbox: the native sample contracts' methods run against a contract instance
 * (call-contract dry runs, and the calls the control API queues as transactions), the state the node
 * reports for a contract, and the definition a deployed bytecode maps to.
 */
import {
  DUST_ATTO,
  addressFromLockupScript,
  blake2b256,
  bytesToHex,
  hexToBytes,
  lockupScriptFromAddress,
  outputKey,
  scriptHintOfLockupScript,
} from '../../src/core/protocol';
import { TransferLedger } from '../ledger/transfers';
import {
  BadRequest,
  DEBUG_EVENT_INDEX,
  type ContractInstance,
  type EventRecord,
  type TxRecord,
  type Utxo,
} from '../ledger/types';
import {
  VmError,
  fieldsByMutability,
  checkVal,
  debugVariant,
  type ContractDef,
  type ExecContext,
  type Val,
} from './sampleContracts';
import { callScript, contractMethods, type Method } from './scriptCodec';

export abstract class ContractLedger extends TransferLedger {
  private readonly methodFlags = new Map<string, Method[]>();

  protected flagsOf(def: ContractDef): Method[] {
    let m = this.methodFlags.get(def.artifact.codeHash);
    if (!m) this.methodFlags.set(def.artifact.codeHash, (m = contractMethods(def.artifact.bytecode)));
    return m;
  }

  /**
   * The sandbox contract whose artifact has this code (its release code, or its debug code, which emits
   * Debug messages) and field layout, or a stored-only definition.
   */
  protected defForCode(
    code: string,
    imm: Val[],
    mut: Val[],
  ): { def: ContractDef; fields: Record<string, Val> } {
    for (const def of this.defs.flatMap((d) => [d, debugVariant(d)])) {
      const sig = def.artifact.fieldsSig;
      const immNames = sig.names.filter((_, i) => !sig.isMutable[i]);
      const mutNames = sig.names.filter((_, i) => sig.isMutable[i]);
      if (def.artifact.bytecode !== code || immNames.length !== imm.length || mutNames.length !== mut.length)
        continue;
      const fields: Record<string, Val> = {};
      immNames.forEach((n, i) => (fields[n] = imm[i] as Val));
      mutNames.forEach((n, i) => (fields[n] = mut[i] as Val));
      // Field values of the wrong type would make the state undecodable: keep such a deploy stored only.
      if (sig.names.every((n, i) => !checkVal(fields[n], sig.types[i] as string))) return { def, fields };
    }
    const names = [...imm.map((_, i) => `imm${i}`), ...mut.map((_, i) => `mut${i}`)];
    const all = [...imm, ...mut];
    const fields: Record<string, Val> = {};
    names.forEach((n, i) => (fields[n] = all[i] as Val));
    const codeHash = bytesToHex(blake2b256(hexToBytes(code)));
    const def: ContractDef = {
      name: `unknown ${codeHash.slice(0, 8)}`,
      artifact: {
        version: '',
        name: '',
        bytecode: code,
        codeHash,
        fieldsSig: { names, types: all.map((v) => v.type), isMutable: all.map((_, i) => i >= imm.length) },
        eventsSig: [],
        functions: [],
        constants: [],
        enums: [],
      },
      artifactPath: '',
      methods: {},
      initialFields: () => fields,
      initialAlph: 0n,
      initialSelfTokens: 0n,
      notExecutable: true,
    };
    return { def, fields };
  }

  /** The states of these contracts, each once, skipping addresses that hold no contract. */
  statesOf(addresses: readonly string[]): Record<string, unknown>[] {
    const unique = [...new Set(addresses)];
    return unique.flatMap((a) => {
      const c = this.contracts.get(a);
      return c ? [this.contractState(c)] : [];
    });
  }

  contractState(c: ContractInstance): Record<string, unknown> {
    const { imm, mut } = fieldsByMutability(c.def.artifact.fieldsSig, c.fields);
    return {
      address: c.address,
      bytecode: c.def.artifact.bytecode,
      codeHash: c.def.artifact.codeHash,
      initialStateHash: c.initialStateHash,
      immFields: imm,
      mutFields: mut,
      asset: {
        attoAlphAmount: String(c.alph),
        tokens: [...c.tokens]
          .filter(([, a]) => a > 0n)
          .map(([id, amount]) => ({ id, amount: String(amount) })),
      },
    };
  }

  /**
   * Runs a method. With commit=false (call-contract) nothing is kept; with commit=true (a mined contract
   * tx) fields, assets and events are applied.
   */
  execute(
    c: ContractInstance,
    methodRef: string | number,
    args: Val[],
    caller: string,
    commit: boolean,
    txId = '',
    firstOutputIndex = 0,
  ) {
    if (c.def.notExecutable)
      throw new BadRequest(`contract ${c.address}: bytecode not executable in the sandbox`);
    const fns = c.def.artifact.functions;
    const idx = typeof methodRef === 'number' ? methodRef : fns.findIndex((f) => f.name === methodRef);
    const fn = fns[idx];
    if (!fn) throw new VmError(`VM execution error: InvalidMethodIndex(${String(methodRef)}, ${fns.length})`);
    if (args.length !== fn.paramTypes.length) {
      throw new VmError(
        `VM execution error: InvalidMethodArgLength(${args.length}, ${fn.paramTypes.length})`,
      );
    }
    fn.paramTypes.forEach((t, i) => {
      const err = checkVal(args[i], t);
      if (err) throw new VmError(`VM execution error: InvalidType(arg ${i} of ${fn.name}: ${err})`);
    });
    const impl = c.def.methods[fn.name];
    if (!impl) throw new VmError(`VM execution error: InvalidMethod(${fn.name})`);
    const fields = { ...c.fields };
    let alph = c.alph;
    const tokens = new Map(c.tokens);
    const events: EventRecord[] = [];
    const debugMessages: { contractAddress: string; message: string }[] = [];
    const generated: Utxo[] = [];
    const ctx: ExecContext = {
      address: c.address,
      caller,
      fields,
      emit: (name, f) => {
        const index = c.def.artifact.eventsSig.findIndex((e) => e.name === name);
        events.push(this.pendingEvent(c.address, index, f, txId));
      },
      debug: (message) => {
        // Only the debug code has the DEBUG instruction: the release code runs past `emit Debug` silently.
        if (!c.def.runsDebugCode) return;
        debugMessages.push({ contractAddress: c.address, message });
        events.push(
          this.pendingEvent(
            c.address,
            DEBUG_EVENT_INDEX,
            [{ type: 'ByteVec', value: Buffer.from(message, 'utf8').toString('hex') }],
            txId,
          ),
        );
      },
      transferSelfTokenToCaller: (amount) => {
        const have = tokens.get(c.contractId) ?? 0n;
        if (have < amount) throw new VmError(`VM execution error: NotEnoughBalance(${c.address})`);
        if (alph < DUST_ATTO) throw new VmError(`VM execution error: NotEnoughBalance(${c.address})`);
        tokens.set(c.contractId, have - amount);
        alph -= DUST_ATTO;
        if (commit) {
          const lockup = lockupScriptFromAddress(caller);
          const index = firstOutputIndex + generated.length;
          generated.push({
            hint: scriptHintOfLockupScript(lockup),
            key: outputKey(txId, index),
            address: addressFromLockupScript(lockup),
            amount: DUST_ATTO,
            tokens: amount > 0n ? [{ id: c.contractId, amount }] : [],
            lockTime: 0,
            message: '',
            txId,
          });
        }
      },
      fail: (code) => {
        throw new VmError(`VM execution error: AssertionFailedWithErrorCode(${c.address},${code})`);
      },
    };
    const returns = impl.impl(ctx, args);
    const previousOutputKey = c.outputKey;
    if (commit) {
      c.fields = fields;
      c.alph = alph;
      c.tokens = tokens;
      c.outputKey = outputKey(txId, firstOutputIndex + generated.length);
    }
    return {
      returns,
      gasUsed: impl.gas,
      events,
      debugMessages,
      generated,
      previousOutputKey,
      method: fn.name,
    };
  }

  /** Queues a contract call as a transaction (mined with the next block). Validates it first. */
  queueCall(
    c: ContractInstance,
    method: string | number,
    args: Val[],
    caller: string,
  ): { tx: TxRecord; returns: Val[] } {
    const dry = this.execute(c, method, args, caller, false);
    const tx = this.scriptTx(c.group, `call ${c.address} ${dry.method}`, callScriptOf(c, dry.method, args));
    tx.call = { contract: c, method: dry.method, args, caller };
    this.mempool.push(tx);
    return { tx, returns: dry.returns };
  }

  queueDeploy(def: ContractDef, group: number, deployer: string): TxRecord {
    const tx = this.deployTx(def, group, deployer);
    this.mempool.push(tx);
    return tx;
  }
}

/** The script a client sends to call `method` of `c` with `args` (what the sandbox's own call txs carry). */
export function callScriptOf(c: ContractInstance, method: string, args: Val[]): string {
  const functions = c.def.artifact.functions;
  const index = functions.findIndex((f) => f.name === method);
  if (index < 0) throw new Error(`${c.def.name} has no method ${method}`);
  return callScript(c.contractId, index, args, functions[index]!.returnTypes.length);
}
