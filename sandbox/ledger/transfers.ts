/**
 * Transfers on the sandbox ledger: input selection, building transfers and sweeps (with the tamper modes
 * that let tests prove verify-before-sign), decoding, and submitting signed transactions to the mempool.
 * A submitted script is checked by the VM ({@link TransferLedger.checkSubmittedScript}) before it is queued.
 */
import {
  DEFAULT_GAS_PRICE,
  DUST_ATTO,
  ProtocolError,
  addressFromPublicKey,
  blake2b256,
  bytesToHex,
  decodeUnsignedTx,
  encodeUnsignedTx,
  groupOfAddress,
  groupsOfUnsignedTx,
  hexToBytes,
  p2pkhUnlockScript,
  parseAddress,
  publicKeyOfUnlockScript,
  txIdFromUnsignedTx,
  type DecodedFixedOutput,
  type DecodedUnsignedTx,
} from '../../src/core/protocol';
import { verifyTxIdSignature } from '../../src/core/protocol/keys';
import { noAssets, type Assets, type Method } from '../vm/scriptCodec';
import { checkAddress, checkPublicKey, estimateGas, gasOptions, parseIntStrict } from './bodyFields';
import { scalarText } from '../../src/core/util/guards';
import { Ledger } from './ledger';
import {
  BadRequest,
  FEE_CAP,
  MAX_GAS,
  MAX_OUTPUTS,
  MIN_GAS,
  NETWORK_ID,
  SWEEP_MAX_INPUTS,
  type Account,
  type BuildResult,
  type TokenAmount,
  type TxRecord,
  type Utxo,
} from './types';

export abstract class TransferLedger extends Ledger {
  /**
   * The VM's check of a submitted script before it enters the mempool: decodes it and runs it on staged
   * state with what the inputs leave for it, throwing the node's 400 when it fails. Returns its methods.
   */
  protected abstract checkSubmittedScript(
    scriptHex: string,
    caller: string,
    provided: Assets,
    txId: string,
    fixedOutputCount: number,
  ): Method[];

  // ---------------------------------------------------------------- build / submit

  protected selectInputs(
    from: string,
    alphOut: bigint,
    tokensOut: Map<string, bigint>,
    fixedOutputCount: number,
    gasAmount: number | undefined,
    gasPrice: bigint,
    /** Gas a script needs on top of what its transfer part needs. */
    extraGas = 0,
  ) {
    const now = this.clock.now();
    const available = this.spendable(from).filter((u) => u.lockTime <= now);
    const chosen: Utxo[] = [];
    const take = (u: Utxo) => {
      chosen.push(u);
      available.splice(available.indexOf(u), 1);
    };
    for (const [id, need] of tokensOut) {
      let have = 0n;
      for (const u of [...available]) {
        if (have >= need) break;
        const t = u.tokens.find((x) => x.id === id);
        if (t) {
          take(u);
          have += t.amount;
        }
      }
      if (have < need) throw new BadRequest(`Not enough balance: token ${id} needs ${need}, has ${have}`);
    }
    // Largest first keeps transactions small, as the node's selection tends to.
    available.sort((a, b) => (a.amount > b.amount ? -1 : a.amount < b.amount ? 1 : 0));
    for (;;) {
      const tokenIn = new Map<string, bigint>();
      let alphIn = 0n;
      for (const u of chosen) {
        alphIn += u.amount;
        for (const t of u.tokens) tokenIn.set(t.id, (tokenIn.get(t.id) ?? 0n) + t.amount);
      }
      const tokenChange: TokenAmount[] = [];
      for (const [id, amount] of tokenIn) {
        const rest = amount - (tokensOut.get(id) ?? 0n);
        if (rest > 0n) tokenChange.push({ id, amount: rest });
      }
      const outputsWithoutAlphChange = fixedOutputCount + tokenChange.length;
      const gas =
        gasAmount ?? estimateGas(Math.max(1, chosen.length), outputsWithoutAlphChange + 1) + extraGas;
      const fee = BigInt(gas) * gasPrice;
      const needed = alphOut + fee + BigInt(tokenChange.length) * DUST_ATTO;
      const change = alphIn - needed;
      if (chosen.length > 0 && (change === 0n || change >= DUST_ATTO)) {
        return { chosen, tokenChange, change, gas, fee };
      }
      const next = available.shift();
      if (!next) {
        throw new BadRequest(
          `Not enough balance: got ${alphIn}, expected ${needed}${change > 0n ? ' plus at least dust for the change output' : ''}`,
        );
      }
      take(next);
    }
  }

  build(body: Record<string, unknown>): BuildResult {
    const from = checkPublicKey(body.fromPublicKey);
    const pub = body.fromPublicKey as string;
    if (!Array.isArray(body.destinations))
      throw new BadRequest('Invalid value for: body (missing destinations)');
    const dests = body.destinations as unknown[];
    if (dests.length === 0) throw new BadRequest('Invalid value for: body (destinations must not be empty)');
    if (dests.length > MAX_OUTPUTS) throw new BadRequest(`Too many outputs: at most ${MAX_OUTPUTS}`);
    const fromGroup = groupOfAddress(from);
    const tokensOut = new Map<string, bigint>();
    let alphOut = 0n;
    const outputs: Omit<DecodedFixedOutput, 'hint' | 'key'>[] = dests.map((d, i) => {
      if (typeof d !== 'object' || d === null)
        throw new BadRequest(`Invalid value for: body (destinations[${i}])`);
      const dest = d as Record<string, unknown>;
      const address = checkAddress(dest.address, `destinations[${i}].address`);
      if (parseAddress(address).type === 'P2C') {
        throw new BadRequest(
          `destinations[${i}].address ${address} is a contract address; use a script to pay contracts`,
        );
      }
      // The spec calls it attoCoinAmount; the real node (and so @alephium/web3) sends attoAlphAmount.
      const field = dest.attoCoinAmount !== undefined ? 'attoCoinAmount' : 'attoAlphAmount';
      const raw = dest.attoCoinAmount ?? dest.attoAlphAmount;
      if (raw === undefined) {
        throw new BadRequest(`Invalid value for: body (missing destinations[${i}].attoCoinAmount)`);
      }
      if (
        dest.attoCoinAmount !== undefined &&
        dest.attoAlphAmount !== undefined &&
        amountKey(dest.attoCoinAmount) !== amountKey(dest.attoAlphAmount)
      ) {
        throw new BadRequest(
          `destinations[${i}]: attoCoinAmount and attoAlphAmount differ; send one amount (they are the same field)`,
        );
      }
      const amount = parseIntStrict(raw, `destinations[${i}].${field}`);
      if (amount < DUST_ATTO) {
        throw new BadRequest(
          `Tx output value is too small, avoid spreading dust: destinations[${i}] has ${amount}, minimum is ${DUST_ATTO}`,
        );
      }
      alphOut += amount;
      const tokens = (dest.tokens ?? []) as unknown;
      if (!Array.isArray(tokens))
        throw new BadRequest(`Invalid value for: body (destinations[${i}].tokens must be an array)`);
      const tk = tokens.map((t: unknown, j) => {
        const tt = (t ?? {}) as Record<string, unknown>;
        if (typeof tt.id !== 'string' || !/^[0-9a-fA-F]{64}$/.test(tt.id)) {
          throw new BadRequest(
            `Invalid value for: body (destinations[${i}].tokens[${j}].id must be 32-byte hex)`,
          );
        }
        const a = parseIntStrict(tt.amount, `destinations[${i}].tokens[${j}].amount`);
        if (a === 0n) throw new BadRequest(`destinations[${i}].tokens[${j}].amount must be positive`);
        const id = tt.id.toLowerCase();
        tokensOut.set(id, (tokensOut.get(id) ?? 0n) + a);
        return { id, amount: String(a) };
      });
      return { attoAlphAmount: String(amount), address, tokens: tk, lockTime: 0, message: '' };
    });
    const { gasAmount, gasPrice } = gasOptions(body);
    const sel = this.selectInputs(from, alphOut, tokensOut, outputs.length, gasAmount, gasPrice);
    if (sel.fee > FEE_CAP) throw new BadRequest(`Too much gas fee ${sel.fee}, cap is ${FEE_CAP}`);
    for (const t of sel.tokenChange) {
      outputs.push({
        attoAlphAmount: String(DUST_ATTO),
        address: from,
        tokens: [{ id: t.id, amount: String(t.amount) }],
        lockTime: 0,
        message: '',
      });
    }
    if (sel.change > 0n)
      outputs.push({
        attoAlphAmount: String(sel.change),
        address: from,
        tokens: [],
        lockTime: 0,
        message: '',
      });
    const tx = {
      version: 0,
      networkId: NETWORK_ID,
      gasAmount: sel.gas,
      gasPrice: String(gasPrice),
      // One signature covers a run of inputs with the same lockup: later ones say SameAsPrevious.
      inputs: sel.chosen.map((u, i) => ({
        outputRef: { hint: u.hint, key: u.key },
        unlockScript: i === 0 ? p2pkhUnlockScript(pub) : '03',
      })),
      fixedOutputs: outputs,
    };
    return this.finishBuild(tx, fromGroup);
  }

  /** Encodes a built tx, applying the tampering mode so verify-before-sign can be proven. */
  protected finishBuild(honest: Parameters<typeof encodeUnsignedTx>[0], fromGroup: number): BuildResult {
    const honestHex = encodeUnsignedTx(honest);
    let hex = honestHex;
    let txId = txIdFromUnsignedTx(hex);
    const mode = this.tamper;
    if (mode !== 'none' && mode !== 'txid') {
      const t = structuredClone(honest);
      const first = t.fixedOutputs[0];
      const changeOut = t.fixedOutputs.length > 1 ? t.fixedOutputs[t.fixedOutputs.length - 1] : undefined;
      const attacker = this.attackers[first ? groupOfAddress(first.address) : 0] as Account;
      if ((mode === 'recipient' || mode === 'decode-lies') && first) first.address = attacker.address;
      if (mode === 'amount' && first) {
        first.attoAlphAmount = String(BigInt(first.attoAlphAmount) + 10n ** 18n);
        if (changeOut && BigInt(changeOut.attoAlphAmount) > 10n ** 18n + DUST_ATTO)
          changeOut.attoAlphAmount = String(BigInt(changeOut.attoAlphAmount) - 10n ** 18n);
      }
      if (mode === 'extra-output') {
        t.fixedOutputs.splice(1, 0, {
          attoAlphAmount: String(10n ** 18n),
          address: attacker.address,
          tokens: [],
          lockTime: 0,
          message: '',
        });
        if (changeOut && BigInt(changeOut.attoAlphAmount) > 10n ** 18n + DUST_ATTO)
          changeOut.attoAlphAmount = String(BigInt(changeOut.attoAlphAmount) - 10n ** 18n);
      }
      hex = encodeUnsignedTx(t);
      txId = txIdFromUnsignedTx(hex);
      if (mode === 'decode-lies') {
        // The decode endpoint will describe the honest request under the tampered bytes' txId.
        this.lies.set(hex, { ...decodeUnsignedTx(honestHex), txId });
      }
    }
    if (mode === 'txid') txId = bytesToHex(blake2b256(hexToBytes(`${hex}00`)));
    const decoded = decodeUnsignedTx(hex);
    const groups =
      decoded.inputs.length > 0 ? groupsOfUnsignedTx(decoded) : { fromGroup, toGroup: fromGroup };
    return {
      unsignedTx: hex,
      gasAmount: decoded.gasAmount,
      gasPrice: decoded.gasPrice,
      txId,
      fromGroup: groups.fromGroup,
      toGroup: groups.toGroup,
    };
  }

  decode(hex: unknown): { fromGroup: number; toGroup: number; unsignedTx: DecodedUnsignedTx } {
    if (typeof hex !== 'string') throw new BadRequest('Invalid value for: body (missing unsignedTx)');
    const decoded = this.decodeOr400(hex);
    const shown = this.lies.get(hex) ?? decoded;
    const groups = decoded.inputs.length > 0 ? groupsOfUnsignedTx(shown) : { fromGroup: 0, toGroup: 0 };
    return { ...groups, unsignedTx: shown };
  }

  private decodeOr400(hex: string): DecodedUnsignedTx {
    try {
      return decodeUnsignedTx(hex);
    } catch (e) {
      if (e instanceof ProtocolError)
        throw new BadRequest(`Cannot decode unsigned transaction: ${e.message}`);
      throw e;
    }
  }

  sweep(body: Record<string, unknown>) {
    const from = checkPublicKey(body.fromPublicKey);
    const pub = body.fromPublicKey as string;
    const to = checkAddress(body.toAddress, 'toAddress');
    if (parseAddress(to).type === 'P2C') throw new BadRequest('toAddress must not be a contract address');
    let gasPrice = DEFAULT_GAS_PRICE;
    if (body.gasPrice !== undefined && body.gasPrice !== null)
      gasPrice = parseIntStrict(body.gasPrice, 'gasPrice');
    let perTx = SWEEP_MAX_INPUTS;
    if (body.utxosLimit !== undefined) {
      if (typeof body.utxosLimit !== 'number' || !Number.isInteger(body.utxosLimit) || body.utxosLimit < 1) {
        throw new BadRequest('Invalid value for: body (utxosLimit must be a positive integer)');
      }
      perTx = Math.min(perTx, body.utxosLimit);
    }
    const now = this.clock.now();
    const utxos = this.spendable(from).filter((u) => u.lockTime <= now);
    if (utxos.length === 0) throw new BadRequest(`Not enough balance: ${from} has no spendable outputs`);
    const fromGroup = groupOfAddress(from);
    const unsignedTxs: { txId: string; unsignedTx: string; gasAmount: number; gasPrice: string }[] = [];
    let toGroup = fromGroup;
    for (let i = 0; i < utxos.length; i += perTx) {
      const chunk = utxos.slice(i, i + perTx);
      const tokens = new Map<string, bigint>();
      let alph = 0n;
      for (const u of chunk) {
        alph += u.amount;
        for (const t of u.tokens) tokens.set(t.id, (tokens.get(t.id) ?? 0n) + t.amount);
      }
      const outputs: Omit<DecodedFixedOutput, 'hint' | 'key'>[] = [...tokens].map(([id, amount]) => ({
        attoAlphAmount: String(DUST_ATTO),
        address: to,
        tokens: [{ id, amount: String(amount) }],
        lockTime: 0,
        message: '',
      }));
      const gas =
        typeof body.gasAmount === 'number' ? body.gasAmount : estimateGas(chunk.length, outputs.length + 1);
      const rest = alph - BigInt(gas) * gasPrice - BigInt(outputs.length) * DUST_ATTO;
      if (rest < DUST_ATTO) continue; // not worth sweeping: the node skips such groups of outputs too
      outputs.push({ attoAlphAmount: String(rest), address: to, tokens: [], lockTime: 0, message: '' });
      const r = this.finishBuild(
        {
          version: 0,
          networkId: NETWORK_ID,
          gasAmount: gas,
          gasPrice: String(gasPrice),
          inputs: chunk.map((u, j) => ({
            outputRef: { hint: u.hint, key: u.key },
            unlockScript: j === 0 ? p2pkhUnlockScript(pub) : '03',
          })),
          fixedOutputs: outputs,
        },
        fromGroup,
      );
      toGroup = r.toGroup;
      unsignedTxs.push({
        txId: r.txId,
        unsignedTx: r.unsignedTx,
        gasAmount: r.gasAmount,
        gasPrice: r.gasPrice,
      });
    }
    if (unsignedTxs.length === 0) throw new BadRequest('Not enough balance to pay the gas of a sweep');
    return { unsignedTxs, fromGroup, toGroup };
  }

  submit(body: Record<string, unknown>): { txId: string; fromGroup: number; toGroup: number } {
    if (typeof body.unsignedTx !== 'string')
      throw new BadRequest('Invalid value for: body (missing unsignedTx)');
    if (typeof body.signature !== 'string')
      throw new BadRequest('Invalid value for: body (missing signature)');
    if (!/^[0-9a-fA-F]{128}$/.test(body.signature)) {
      throw new BadRequest('Invalid value for: body (signature must be 64 bytes of hex)');
    }
    const unsigned = this.decodeOr400(body.unsignedTx);
    const txId = unsigned.txId;
    if (unsigned.networkId !== NETWORK_ID)
      throw new BadRequest(`Invalid network id ${unsigned.networkId}, expected ${NETWORK_ID}`);
    if (this.txs.has(txId) || this.mempool.some((t) => t.txId === txId))
      throw new BadRequest(`Transaction ${txId} already exists`);
    if (unsigned.inputs.length === 0) throw new BadRequest('Transaction has no inputs');
    if (unsigned.gasAmount < MIN_GAS || unsigned.gasAmount > MAX_GAS)
      throw new BadRequest(`Invalid gas amount ${unsigned.gasAmount}`);
    if (BigInt(unsigned.gasPrice) < DEFAULT_GAS_PRICE)
      throw new BadRequest(`Gas price ${unsigned.gasPrice} too small`);
    const spends: string[] = [];
    let alphIn = 0n;
    const tokenIn = new Map<string, bigint>();
    let prevAddress = '';
    let signer: string | undefined;
    const now = this.clock.now();
    for (const [i, input] of unsigned.inputs.entries()) {
      const key = input.outputRef.key;
      const u = this.utxos.get(key) ?? this.mempoolOutputs.get(key);
      if (!u) {
        if (this.spent.has(key)) throw new BadRequest(`Double spending: input ${key} is already spent`);
        throw new BadRequest(`Non-existent input: ${key}`);
      }
      if (this.mempoolSpent.has(key) || spends.includes(key)) {
        throw new BadRequest(
          `Double spending: input ${key} is already spent by a transaction in the mempool`,
        );
      }
      if (u.lockTime > now) throw new BadRequest(`Input ${key} is locked until ${u.lockTime}`);
      if (input.unlockScript === '03') {
        if (i === 0 || u.address !== prevAddress)
          throw new BadRequest(
            `Invalid unlock script for input ${i}: SameAsPrevious with a different lockup`,
          );
      } else {
        const pub = publicKeyOfUnlockScript(input.unlockScript);
        if (!pub) throw new BadRequest(`Invalid unlock script for input ${i}: only P2PKH is supported`);
        if (addressFromPublicKey(pub) !== u.address)
          throw new BadRequest(
            `Invalid unlock script for input ${i}: public key does not match the output's lockup`,
          );
        if (signer !== undefined && signer !== pub)
          throw new BadRequest('Not enough signatures: inputs from several keys need several signatures');
        signer = pub;
      }
      prevAddress = u.address;
      spends.push(key);
      alphIn += u.amount;
      for (const t of u.tokens) tokenIn.set(t.id, (tokenIn.get(t.id) ?? 0n) + t.amount);
    }
    if (!signer || !verifyTxIdSignature(txId, body.signature.toLowerCase(), signer)) {
      throw new BadRequest(
        'Invalid signature: it does not verify against the transaction id and the input public key',
      );
    }
    let alphOut = BigInt(unsigned.gasAmount) * BigInt(unsigned.gasPrice);
    const tokenOut = new Map<string, bigint>();
    for (const [i, o] of unsigned.fixedOutputs.entries()) {
      const a = BigInt(o.attoAlphAmount);
      if (a < DUST_ATTO)
        throw new BadRequest(`Tx output value is too small, avoid spreading dust: output ${i}`);
      alphOut += a;
      for (const t of o.tokens) tokenOut.set(t.id, (tokenOut.get(t.id) ?? 0n) + BigInt(t.amount));
    }
    const ids = new Set([...tokenIn.keys(), ...tokenOut.keys()]);
    let script: TxRecord['script'];
    if (unsigned.scriptOpt) {
      // What the inputs hold beyond the fixed outputs and the fee is the script's to approve; the rest
      // comes back as generated outputs when it runs.
      const provided = noAssets();
      provided.alph = alphIn - alphOut;
      if (provided.alph < 0n)
        throw new BadRequest(`Invalid ALPH balance: inputs ${alphIn}, outputs plus gas fee ${alphOut}`);
      for (const id of ids) {
        const rest = (tokenIn.get(id) ?? 0n) - (tokenOut.get(id) ?? 0n);
        if (rest < 0n) throw new BadRequest(`Invalid token balance for ${id}`);
        if (rest > 0n) provided.tokens.set(id, rest);
      }
      const caller = addressFromPublicKey(signer);
      const methods = this.checkSubmittedScript(
        unsigned.scriptOpt,
        caller,
        provided,
        txId,
        unsigned.fixedOutputs.length,
      );
      script = { methods, caller, provided };
    } else {
      if (alphIn !== alphOut)
        throw new BadRequest(`Invalid ALPH balance: inputs ${alphIn}, outputs plus gas fee ${alphOut}`);
      for (const id of ids) {
        if ((tokenIn.get(id) ?? 0n) !== (tokenOut.get(id) ?? 0n))
          throw new BadRequest(`Invalid token balance for ${id}`);
      }
    }
    const { fromGroup, toGroup } = groupsOfUnsignedTx(unsigned);
    const rec = this.recordFromUnsigned(unsigned, fromGroup, toGroup, spends, [body.signature.toLowerCase()]);
    if (script) rec.script = script;
    this.mempool.push(rec);
    for (const k of spends) this.mempoolSpent.set(k, txId);
    for (const u of rec.creates) this.mempoolOutputs.set(u.key, u);
    return { txId, fromGroup, toGroup };
  }
}

/** An amount field as compared between its two spellings: a number or string by its text, anything else by its JSON. */
function amountKey(value: unknown): string | undefined {
  return scalarText(value) ?? JSON.stringify(value);
}
