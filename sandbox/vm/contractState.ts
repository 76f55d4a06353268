/**
 * Contract state in the sandbox: the state the node reports for a contract, the definition (artifact) a
 * deployed bytecode maps to, and the genesis deploys. The contracts' code runs on the VM (`execution.ts`).
 */
import { blake2b256, bytesToHex, hexToBytes } from '../../src/core/protocol';
import { TransferLedger } from '../ledger/transfers';
import type { ContractInstance, TxRecord } from '../ledger/types';
import { fieldsByMutability, checkVal, debugVariant, type ContractDef, type Val } from './projectContracts';
import { callScript } from './scriptCodec';

export abstract class ContractLedger extends TransferLedger {
  /**
   * The sandbox contract whose artifact has this code (its release code, or its debug code, which emits
   * Debug messages) and field layout, or one that names the fields by position (code without an artifact
   * runs all the same).
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
      // Field values of other types than the artifact's: not this artifact's contract.
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
      initialFields: () => fields,
      initialAlph: 0n,
      initialSelfTokens: 0n,
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
