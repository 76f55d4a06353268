/**
 * Building script transactions in the sandbox: execute-script and deploy-contract builds (inputs of the
 * signer, the gas estimate from a staged run, the node's simulation result), with the script tamper modes
 * that let tests prove verify-before-sign on scripts and deploys.
 */
import {
  DUST_ATTO,
  addressFromContractId,
  blake2b256,
  bytesToHex,
  groupOfAddress,
  p2pkhUnlockScript,
  parseAddress,
} from '../../src/core/protocol';
import { checkAddress, checkPublicKey, gasOptions, parseIntStrict, parseTokens } from '../ledger/bodyFields';
import {
  BadRequest,
  FEE_CAP,
  GROUPS,
  MAX_GAS,
  MINIMAL_CONTRACT_DEPOSIT,
  NETWORK_ID,
  type Account,
} from '../ledger/types';
import { ScriptLedger } from './execution';
import { debugVariant, type ContractDef, type Val } from './projectContracts';
import {
  NODE_ESTIMATE_PREFIX,
  buildDeployScript,
  constInstr,
  encodeFields,
  encodeScript,
  nodeContractId,
  otherValue,
  splitDeployBytecode,
  constValue as constValueOf,
  lockupOfAddress as lockupOf,
  type Assets,
  type Method,
} from './scriptCodec';
import { binToHex, codec, hexToBinUnsafe } from '@alephium/web3';

export abstract class ScriptBuildLedger extends ScriptLedger {
  /**
   * Builds a script tx: inputs of the signer cover what the script may use plus the fee, fixed outputs are
   * the signer's change only. Returns the tx with the simulation of `simulated` (the honest script even when
   * a tamper mode changed the built one, as a lying gateway would).
   */
  private buildScriptTx(p: {
    pub: string;
    from: string;
    methods: Method[];
    provided: Assets;
    gasAmount?: number;
    gasPrice: bigint;
    gasMultiplier?: number;
    extraOutput?: { address: string; amount: bigint };
    /** A tampered build reuses the honest gas: a lying gateway does not care whether its script runs. */
    skipEstimate?: boolean;
  }) {
    const group = groupOfAddress(p.from);
    const placeholder = bytesToHex(blake2b256(new TextEncoder().encode(`estimate ${this.nonceCounter++}`)));
    let scriptGas = 0;
    if (!p.skipEstimate) {
      try {
        const estimate = this.runStaged(p.methods, p.from, p.provided, placeholder, 0);
        scriptGas = Math.ceil(estimate.gas * (p.gasMultiplier ?? 1));
      } catch (e) {
        throw ScriptLedger.estimateError(e);
      }
    }
    if (p.gasAmount !== undefined && p.gasAmount < scriptGas)
      throw new BadRequest(`${NODE_ESTIMATE_PREFIX}OutOfGas`);
    const extraAlph = p.extraOutput?.amount ?? 0n;
    const sel = this.selectInputs(
      p.from,
      p.provided.alph + extraAlph,
      p.provided.tokens,
      p.extraOutput ? 1 : 0,
      p.gasAmount,
      p.gasPrice,
      scriptGas,
    );
    if (sel.gas > MAX_GAS) throw new BadRequest(`Too much gas ${sel.gas}, maximum is ${MAX_GAS}`);
    if (sel.fee > FEE_CAP) throw new BadRequest(`Too much gas fee ${sel.fee}, cap is ${FEE_CAP}`);
    const outputs: { address: string; attoAlphAmount: string; tokens: { id: string; amount: string }[] }[] =
      [];
    if (p.extraOutput)
      outputs.push({
        address: p.extraOutput.address,
        attoAlphAmount: String(p.extraOutput.amount),
        tokens: [],
      });
    for (const t of sel.tokenChange)
      outputs.push({
        address: p.from,
        attoAlphAmount: String(DUST_ATTO),
        tokens: [{ id: t.id, amount: String(t.amount) }],
      });
    if (sel.change > 0n) outputs.push({ address: p.from, attoAlphAmount: String(sel.change), tokens: [] });
    // Encoded with @alephium/web3's codec, not the extension's: the sandbox is the independent side.
    const api = {
      txId: '',
      version: 0,
      networkId: NETWORK_ID,
      scriptOpt: encodeScript(p.methods),
      gasAmount: sel.gas,
      gasPrice: String(p.gasPrice),
      inputs: sel.chosen.map((u, i) => ({
        outputRef: { hint: u.hint, key: u.key },
        unlockScript: i === 0 ? p2pkhUnlockScript(p.pub) : '03',
      })),
      fixedOutputs: outputs.map((o) => ({ hint: 0, key: '', ...o, lockTime: 0, message: '' })),
    };
    const hex = binToHex(codec.unsignedTxCodec.encodeApiUnsignedTx(api));
    const txId = codec.unsignedTxCodec.decodeApiUnsignedTx(hexToBinUnsafe(hex)).txId;
    return { hex, txId, gas: sel.gas, gasPrice: p.gasPrice, group, fixedOutputCount: outputs.length };
  }

  /** Changes a call script's bytes the way the current tamper mode says (or returns it unchanged). */
  private tamperCallScript(methods: Method[], from: string): { methods: Method[]; extraAlph: bigint } {
    const mode = this.tamper;
    const m = structuredClone<Method[]>(methods);
    const instrs = (m[0] as Method).instrs;
    const attacker = (this.attackers[groupOfAddress(from)] as Account).address;
    const callAt = instrs.findIndex((i) => i.name === 'CallExternal');
    if (mode === 'script-method' && callAt >= 0) {
      const call = instrs[callAt] as Extract<Method['instrs'][number], { name: 'CallExternal' }>;
      const id = String(constValueOf(instrs[callAt - 1])?.value ?? '');
      const target = [...this.contracts.values()].find((c) => c.contractId === id);
      const fns = target?.def.artifact.functions ?? [];
      const cur = fns[call.index];
      // Prefer a method of the same shape, so the tampered tx still runs (a real attack would).
      const same = fns.findIndex(
        (f, i) =>
          i !== call.index &&
          cur !== undefined &&
          f.paramTypes.length === cur.paramTypes.length &&
          f.returnTypes.length === cur.returnTypes.length,
      );
      instrs[callAt] = codec.CallExternal(same >= 0 ? same : call.index + 1);
    }
    if (mode === 'script-args' && callAt >= 4) {
      const argc = Number(constValueOf(instrs[callAt - 3])?.value ?? 0);
      const argAt = callAt - 4;
      const v = constValueOf(instrs[argAt]);
      if (argc > 0 && v) instrs[argAt] = constInstr(otherValue(v, attacker));
    }
    let extraAlph = 0n;
    if (mode === 'script-approve') {
      extraAlph = 10n ** 18n;
      const at = instrs.findIndex((i) => i.name === 'ApproveAlph');
      const amount = at > 0 ? constValueOf(instrs[at - 1]) : undefined;
      if (amount && amount.type === 'U256') {
        instrs[at - 1] = constInstr({
          type: 'U256',
          value: String(BigInt(String(amount.value)) + extraAlph),
        });
      } else {
        instrs.unshift(codec.AddressConst(lockupOf(from)), codec.toU256(extraAlph), codec.ApproveAlph);
        (m[0] as Method).usePreapprovedAssets = true;
      }
    }
    return { methods: m, extraAlph };
  }

  buildExecuteScript(body: Record<string, unknown>) {
    const from = checkPublicKey(body.fromPublicKey);
    const pub = body.fromPublicKey as string;
    this.checkGroupOption(body.group, from);
    const methods = this.scriptOr400(body.bytecode, 'bytecode');
    const provided: Assets = {
      alph:
        body.attoAlphAmount === undefined || body.attoAlphAmount === null
          ? 0n
          : parseIntStrict(body.attoAlphAmount, 'attoAlphAmount'),
      tokens: parseTokens(body.tokens, 'tokens'),
    };
    // As the node does, the inputs also cover dust for each token, so the tokens the script does not use
    // can come back in valid outputs.
    const dust =
      body.dustAmount === undefined || body.dustAmount === null
        ? DUST_ATTO
        : parseIntStrict(body.dustAmount, 'dustAmount');
    provided.alph += dust * BigInt(provided.tokens.size);
    const gas = gasOptions(body);
    let gasMultiplier: number | undefined;
    if (body.gasEstimationMultiplier !== undefined && body.gasEstimationMultiplier !== null) {
      const g = body.gasEstimationMultiplier;
      if (typeof g !== 'number' || !(g >= 1 && g <= 2))
        throw new BadRequest('Invalid value for: body (gasEstimationMultiplier must be between 1.0 and 2.0)');
      if (gas.gasAmount !== undefined)
        throw new BadRequest(
          'Parameters `gasAmount` and `gasEstimationMultiplier` cannot be specified simultaneously',
        );
      gasMultiplier = g;
    }
    const scriptMode = ['script-method', 'script-args', 'script-approve', 'script-extra-output'].includes(
      this.tamper,
    );
    let built: ReturnType<ScriptBuildLedger['buildScriptTx']>;
    if (!scriptMode) {
      built = this.buildScriptTx({ pub, from, methods, provided, ...gas, gasMultiplier });
    } else {
      // The honest build first: a malicious gateway answers only requests that would have succeeded.
      const honest = this.buildScriptTx({ pub, from, methods, provided, ...gas, gasMultiplier });
      const t = this.tamperCallScript(methods, from);
      const attacker = (this.attackers[groupOfAddress(from)] as Account).address;
      const tampered: Assets = { alph: provided.alph + t.extraAlph, tokens: provided.tokens };
      built = this.buildScriptTx({
        pub,
        from,
        methods: t.methods,
        provided: tampered,
        gasAmount: gas.gasAmount ?? honest.gas,
        gasPrice: gas.gasPrice,
        skipEstimate: true,
        ...(this.tamper === 'script-extra-output'
          ? { extraOutput: { address: attacker, amount: 10n ** 18n } }
          : {}),
      });
    }
    // The simulation the node reports: the requested script, placed in the built tx.
    const sim = this.runStaged(methods, from, provided, built.txId, built.fixedOutputCount);
    return {
      type: 'BuildSimpleExecuteScriptTxResult',
      fromGroup: built.group,
      toGroup: built.group,
      unsignedTx: built.hex,
      gasAmount: built.gas,
      gasPrice: String(built.gasPrice),
      txId: built.txId,
      simulationResult: this.simulationResult(sim),
    };
  }

  private checkGroupOption(group: unknown, from: string): void {
    if (group === undefined || group === null) return;
    if (typeof group !== 'number' || !Number.isInteger(group) || group < 0 || group >= GROUPS)
      throw new BadRequest('Invalid value for: body (group must be an integer 0..3)');
    if (group !== groupOfAddress(from))
      throw new BadRequest(`Group ${group} does not match the group ${groupOfAddress(from)} of ${from}`);
  }

  buildDeployContract(body: Record<string, unknown>) {
    const from = checkPublicKey(body.fromPublicKey);
    const pub = body.fromPublicKey as string;
    this.checkGroupOption(body.group, from);
    let parsed: ReturnType<typeof splitDeployBytecode>;
    try {
      parsed = splitDeployBytecode(body.bytecode);
    } catch (e) {
      throw ScriptLedger.estimateError(e);
    }
    const alph =
      body.initialAttoAlphAmount === undefined || body.initialAttoAlphAmount === null
        ? MINIMAL_CONTRACT_DEPOSIT
        : parseIntStrict(body.initialAttoAlphAmount, 'initialAttoAlphAmount');
    if (alph < MINIMAL_CONTRACT_DEPOSIT)
      throw new BadRequest('Expect 0.1 ALPH deposit to deploy a new contract');
    const tokens = parseTokens(body.initialTokenAmounts, 'initialTokenAmounts');
    const issueTokenAmount =
      body.issueTokenAmount === undefined || body.issueTokenAmount === null
        ? undefined
        : parseIntStrict(body.issueTokenAmount, 'issueTokenAmount');
    let issueTokenTo: string | undefined;
    if (body.issueTokenTo !== undefined && body.issueTokenTo !== null) {
      issueTokenTo = checkAddress(body.issueTokenTo, 'issueTokenTo');
      if (parseAddress(issueTokenTo).type === 'P2C')
        throw new BadRequest('Invalid value for: body (issueTokenTo must be an asset address)');
      if (issueTokenAmount === undefined)
        throw new BadRequest('`issueTokenTo` is specified, but `issueTokenAmount` is not specified');
    }
    const gas = gasOptions(body);
    const script = (code: string, imm: Val[], mut: Val[]) =>
      this.scriptOr400(
        buildDeployScript({
          from,
          code,
          immHex: encodeFields(imm),
          mutHex: encodeFields(mut),
          alph,
          tokens: [...tokens].map(([id, amount]) => ({ id, amount })),
          ...(issueTokenAmount !== undefined ? { issueTokenAmount } : {}),
          ...(issueTokenTo !== undefined ? { issueTokenTo } : {}),
          dust: DUST_ATTO,
        }),
        'bytecode',
      );
    const methods = script(parsed.code, parsed.imm, parsed.mut);
    // transferAlph! of the dust to issueTokenTo comes from the deployer too.
    const provided: Assets = { alph: alph + (issueTokenTo !== undefined ? DUST_ATTO : 0n), tokens };
    let built = this.buildScriptTx({ pub, from, methods, provided, ...gas });
    if (this.tamper === 'deploy-code' || this.tamper === 'deploy-fields') {
      const attacker = (this.attackers[groupOfAddress(from)] as Account).address;
      let { code, imm, mut } = parsed;
      if (this.tamper === 'deploy-code') {
        // Another real contract's code: what a gateway swapping the contract would send.
        const other = this.defs.find(
          (d) => d.artifact.bytecode !== code && debugVariant(d).artifact.bytecode !== code,
        ) as ContractDef;
        code = other.artifact.bytecode;
      } else {
        const all = [...imm, ...mut];
        const at = Math.max(
          0,
          all.findIndex((v) => v.type === 'Address'),
        );
        if (all[at]) {
          all[at] = otherValue(all[at], attacker);
          imm = all.slice(0, imm.length);
          mut = all.slice(imm.length);
        }
      }
      built = this.buildScriptTx({
        pub,
        from,
        methods: script(code, imm, mut),
        provided,
        gasAmount: gas.gasAmount ?? built.gas,
        gasPrice: gas.gasPrice,
        skipEstimate: true,
      });
    }
    const contractId = nodeContractId(built.txId, built.fixedOutputCount, built.group);
    return {
      type: 'BuildSimpleDeployContractTxResult',
      fromGroup: built.group,
      toGroup: built.group,
      unsignedTx: built.hex,
      gasAmount: built.gas,
      gasPrice: String(built.gasPrice),
      txId: built.txId,
      contractAddress: addressFromContractId(contractId),
    };
  }
}
