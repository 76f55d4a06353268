/**
 * In-memory blockflow: a UTXO ledger over 4 groups (16 chains), a mempool, blocks, contracts and their
 * event logs. Everything the gateway endpoints answer comes from here, so one submitted transaction moves
 * consistently through status, details, balances, blocks and events.
 *
 * Transaction bytes are built and parsed with the project's protocol core (src/core/protocol), and the
 * sandbox's own tests cross-check them with @alephium/web3's codec, so the two implementations police
 * each other.
 */
import { createHash } from 'node:crypto';
import {
  DEFAULT_GAS_PRICE,
  DUST_ATTO,
  ProtocolError,
  addressFromContractId,
  addressFromLockupScript,
  addressFromPublicKey,
  blake2b256,
  bytesToHex,
  contractHint,
  contractIdFromTx,
  decodeUnsignedTx,
  encodeUnsignedTx,
  groupOfAddress,
  groupsOfUnsignedTx,
  hexToBytes,
  lockupScriptFromAddress,
  outputKey,
  p2pkhUnlockScript,
  parseAddress,
  publicKeyFromPrivateKey,
  publicKeyOfUnlockScript,
  scriptHintOfLockupScript,
  txIdFromUnsignedTx,
  verifyTxIdSignature,
  type DecodedFixedOutput,
  type DecodedUnsignedTx,
} from '../../src/core/protocol';
import type { Clock } from '../clock';
import { VmError, checkVal, type ContractDef, type ExecContext, type Val } from '../vm/sampleContracts';
import {
  NODE_ESTIMATE_PREFIX,
  ScriptRejected,
  ScriptVmError,
  addAssets,
  buildDeployScript,
  constInstr,
  contractMethods,
  decodeScript,
  encodeFields,
  encodeScript,
  nodeContractId,
  noAssets,
  otherValue,
  runScript,
  splitDeployBytecode,
  constValue as constValueOf,
  lockupOfAddress as lockupOf,
  type Assets,
  type CreateSpec,
  type Method,
} from '../vm/scriptCodec';
import { binToHex, codec, hexToBinUnsafe } from '@alephium/web3';

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

interface PendingCall {
  contract: ContractInstance;
  method: string;
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

function parseIntStrict(v: unknown, field: string): bigint {
  if (typeof v !== 'string' || !/^\d+$/.test(v))
    throw new BadRequest(`Invalid value for: body (${field}: expected a decimal integer string)`);
  return BigInt(v);
}

function checkAddress(a: unknown, field: string): string {
  if (typeof a !== 'string') throw new BadRequest(`Invalid value for: body (missing ${field})`);
  try {
    parseAddress(a);
  } catch (e) {
    throw new BadRequest(
      `Invalid value for: body (${field}: Unable to decode address from ${a}: ${(e as Error).message})`,
    );
  }
  return a;
}

function checkPublicKey(pub: unknown): string {
  if (typeof pub !== 'string') throw new BadRequest('Invalid value for: body (missing fromPublicKey)');
  try {
    p2pkhUnlockScript(pub);
    return addressFromPublicKey(pub);
  } catch (e) {
    throw new BadRequest(`Invalid value for: body (fromPublicKey: ${(e as Error).message})`);
  }
}

export function estimateGas(inputs: number, outputs: number): number {
  // Node's transfer estimate: base + per-input + per-output, never below the minimal gas.
  return Math.max(MIN_GAS, 1000 + inputs * 2000 + outputs * 4500);
}

function hashChainIndex(seed: string, chainIndex: number): string {
  const h = blake2b256(new TextEncoder().encode(seed));
  // The SDK finds a block's chain from its hash's last 2 bytes mod 16; make that hold.
  h[31] = ((h[31] as number) & 0xf0) | chainIndex;
  return bytesToHex(h);
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

export class Chain {
  readonly accounts: Account[] = [];
  /** An address of each group that tampering redirects funds to. */
  readonly attackers: Account[] = [];
  readonly contracts = new Map<string, ContractInstance>();
  readonly codes = new Map<string, string>();
  tamper: TamperMode = 'none';
  /**
   * Script txs still to fail when mined (control API `/scripts/fail-in-block`): what a state change between
   * a dry run and the block does on a real node; the tx is kept with `scriptExecutionOk: false`.
   */
  scriptsToFailInBlock = 0;

  private readonly utxos = new Map<string, Utxo>();
  private readonly byAddress = new Map<string, Set<string>>();
  private readonly spent = new Set<string>();
  private mempool: TxRecord[] = [];
  private readonly mempoolSpent = new Map<string, string>();
  private readonly mempoolOutputs = new Map<string, Utxo>();
  readonly txs = new Map<string, TxRecord>();
  private readonly chains: Block[][] = [];
  readonly blocks = new Map<string, Block>();
  private round = 0;
  private nonceCounter = 0;
  private readonly eventLogs = new Map<string, (EventRecord & { hidden: boolean })[]>();
  private readonly eventsByBlock = new Map<string, EventRecord[]>();
  /** Honest decodings of tampered builds, for the 'decode-lies' mode. */
  private readonly lies = new Map<string, DecodedUnsignedTx>();

  constructor(
    protected readonly clock: Clock,
    readonly defs: ContractDef[],
  ) {
    for (let i = 0; i < GROUPS * GROUPS; i++) this.chains.push([]);
    for (let g = 0; g < GROUPS; g++) this.accounts.push(deterministicAccount(`genesis group ${g}`, g));
    // An account holding many small outputs, so sweep has to split into several transactions.
    this.accounts.push(deterministicAccount('genesis many-utxos', 0));
    for (let g = 0; g < GROUPS; g++) this.attackers.push(deterministicAccount(`attacker group ${g}`, g));
    this.genesis(defs);
  }

  // ---------------------------------------------------------------- genesis and mining

  private genesis(defs: ContractDef[]): void {
    const ts = this.clock.now();
    const genesisTxs: TxRecord[] = [];
    for (let g = 0; g < GROUPS; g++) {
      const manyUtxos = this.accounts[GROUPS];
      const outputs = this.accounts
        .filter((a) => a.group === g)
        .flatMap((a) =>
          a === manyUtxos
            ? Array.from({ length: 45 }, () => ({
                address: a.address,
                amount: 100n * 10n ** 18n,
                tokens: [],
              }))
            : [{ address: a.address, amount: GENESIS_ALPH, tokens: [] as TokenAmount[] }],
        );
      genesisTxs.push(this.syntheticTransfer(g, outputs));
    }
    for (const tx of genesisTxs) this.applyTx(tx);
    // Contracts are created by deploy transactions in the genesis blocks of chain (g, g).
    for (const def of defs) {
      const deployer = this.accounts[0] as Account;
      const tx = this.deployTx(def, deployer.group, deployer.address);
      this.applyTx(tx);
      genesisTxs.push(tx);
    }
    // The faucet's deployer gets some tokens up front so token transfers can be tested without a faucet call.
    const faucet = [...this.contracts.values()].find((c) => c.def.initialSelfTokens > 0n);
    if (faucet) {
      const holder = this.accounts[0] as Account;
      const grant = 1_000_000n * 10n ** 18n;
      faucet.tokens.set(faucet.contractId, (faucet.tokens.get(faucet.contractId) ?? 0n) - grant);
      faucet.fields.balance = {
        type: 'U256',
        value: String(BigInt(String(faucet.fields.balance?.value ?? 0)) - grant),
      };
      const tx = this.syntheticTransfer(holder.group, [
        { address: holder.address, amount: DUST_ATTO, tokens: [{ id: faucet.contractId, amount: grant }] },
      ]);
      this.applyTx(tx);
      genesisTxs.push(tx);
    }
    for (let i = 0; i < GROUPS * GROUPS; i++) {
      const from = Math.floor(i / GROUPS);
      const to = i % GROUPS;
      const txs = genesisTxs.filter((t) => t.fromGroup === from && t.toGroup === to);
      this.addBlock(from, to, txs, ts);
    }
  }

  /** A tx with no inputs that creates outputs (genesis allocations and sandbox funding). */
  private syntheticTransfer(
    group: number,
    outputs: { address: string; amount: bigint; tokens: TokenAmount[] }[],
  ): TxRecord {
    const unsignedInput = {
      version: 0,
      networkId: NETWORK_ID,
      gasAmount: MIN_GAS,
      gasPrice: String(DEFAULT_GAS_PRICE),
      inputs: [],
      fixedOutputs: outputs.map((o) => ({
        attoAlphAmount: String(o.amount),
        address: o.address,
        tokens: o.tokens.map((t) => ({ id: t.id, amount: String(t.amount) })),
        lockTime: 0,
        // A unique message keeps txIds distinct for otherwise identical allocations.
        message: '',
      })),
    };
    unsignedInput.fixedOutputs.forEach((o, i) => {
      if (i === 0) o.message = (this.nonceCounter++).toString(16).padStart(8, '0');
    });
    const hex = encodeUnsignedTx(unsignedInput);
    const unsigned = decodeUnsignedTx(hex);
    return this.recordFromUnsigned(unsigned, group, group, [], []);
  }

  private recordFromUnsigned(
    unsigned: DecodedUnsignedTx,
    fromGroup: number,
    toGroup: number,
    spends: string[],
    signatures: string[],
  ): TxRecord {
    const creates: Utxo[] = unsigned.fixedOutputs.map((o) => ({
      hint: o.hint,
      key: o.key,
      address: o.address,
      amount: BigInt(o.attoAlphAmount),
      tokens: o.tokens.map((t) => ({ id: t.id, amount: BigInt(t.amount) })),
      lockTime: o.lockTime,
      message: o.message,
      txId: unsigned.txId,
    }));
    return {
      txId: unsigned.txId,
      fromGroup,
      toGroup,
      unsigned,
      scriptExecutionOk: true,
      contractInputs: [],
      generatedOutputs: [],
      inputSignatures: signatures,
      scriptSignatures: [],
      spends,
      creates,
      events: [],
    };
  }

  /** A contract-activity tx: no asset inputs, a script, effects applied when mined. */
  private scriptTx(group: number, label: string): TxRecord {
    const txId = bytesToHex(
      blake2b256(new TextEncoder().encode(`sandbox script tx ${label} ${this.nonceCounter++}`)),
    );
    const unsigned: DecodedUnsignedTx = {
      txId,
      version: 0,
      networkId: NETWORK_ID,
      scriptOpt: '0101030001000c0c', // marker script; the sandbox never exposes these as bytes
      gasAmount: 30_000,
      gasPrice: String(DEFAULT_GAS_PRICE),
      inputs: [],
      fixedOutputs: [],
    };
    return this.recordFromUnsigned(unsigned, group, group, [], []);
  }

  private deployTx(def: ContractDef, group: number, deployer: string): TxRecord {
    const tx = this.scriptTx(group, `deploy ${def.name}`);
    const contractId = contractIdFromTx(tx.txId, 0, group);
    const address = addressFromContractId(contractId);
    const inst: ContractInstance = {
      def,
      address,
      contractId,
      group,
      deployTxId: tx.txId,
      fields: def.initialFields(deployer),
      alph: def.initialAlph,
      tokens: new Map(def.initialSelfTokens > 0n ? [[contractId, def.initialSelfTokens]] : []),
      initialStateHash: bytesToHex(blake2b256(new TextEncoder().encode(`${address} initial state`))),
      outputKey: outputKey(tx.txId, 0),
    };
    tx.deploy = inst;
    tx.generatedOutputs.push(this.contractOutputJson(inst));
    return tx;
  }

  private contractOutputJson(c: ContractInstance): Record<string, unknown> {
    return {
      type: 'ContractOutput',
      hint: contractHint(c.contractId),
      key: c.outputKey,
      attoAlphAmount: String(c.alph),
      address: c.address,
      tokens: [...c.tokens].filter(([, a]) => a > 0n).map(([id, amount]) => ({ id, amount: String(amount) })),
    };
  }

  /** Moves a tx's effects into the ledger (called when it is mined, or at genesis). */
  private applyTx(tx: TxRecord): void {
    for (const key of tx.spends) this.removeUtxo(key);
    if (tx.deploy) {
      const c = tx.deploy;
      this.contracts.set(c.address, c);
      this.codes.set(c.def.artifact.codeHash, c.def.artifact.bytecode);
      tx.events.push(
        this.pendingEvent(
          systemEventAddress(-1, c.group),
          -1,
          [
            { type: 'Address', value: c.address },
            { type: 'ByteVec', value: '' },
            { type: 'ByteVec', value: c.def.artifact.stdInterfaceId ?? '' },
          ],
          tx.txId,
        ),
      );
    }
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
    for (const u of tx.creates) this.addUtxo(u);
  }

  private pendingEvent(
    contractAddress: string,
    eventIndex: number,
    fields: Val[],
    txId: string,
  ): EventRecord {
    return { contractAddress, eventIndex, fields, txId, blockHash: '', timestamp: 0 };
  }

  private addUtxo(u: Utxo): void {
    this.utxos.set(u.key, u);
    let set = this.byAddress.get(u.address);
    if (!set) this.byAddress.set(u.address, (set = new Set()));
    set.add(u.key);
  }

  private removeUtxo(key: string): void {
    const u = this.utxos.get(key);
    if (!u) return;
    this.utxos.delete(key);
    this.byAddress.get(u.address)?.delete(key);
    this.spent.add(key);
  }

  private addBlock(from: number, to: number, txs: TxRecord[], ts: number): Block {
    const chainIndex = from * GROUPS + to;
    const chain = this.chains[chainIndex] as Block[];
    const height = chain.length;
    const hash = hashChainIndex(
      `block ${chainIndex} ${height} ${ts} ${txs.map((t) => t.txId).join(',')}`,
      chainIndex,
    );
    const deps: string[] = [];
    for (let g = 0; g < GROUPS; g++) if (g !== from) deps.push(this.tipHash(g, g) ?? '00'.repeat(32));
    for (let t = 0; t < GROUPS; t++) deps.push(this.tipHash(from, t) ?? '00'.repeat(32));
    const block: Block = {
      hash,
      timestamp: ts,
      chainFrom: from,
      chainTo: to,
      height,
      round: this.round,
      deps,
      txs,
      nonce: bytesToHex(blake2b256(new TextEncoder().encode(`nonce ${hash}`)).slice(0, 24)),
      depStateHash: bytesToHex(blake2b256(new TextEncoder().encode(`state ${hash}`))),
      txsHash: bytesToHex(blake2b256(new TextEncoder().encode(`txs ${txs.map((t) => t.txId).join('')}`))),
      target: '20ffffff',
    };
    chain.push(block);
    this.blocks.set(hash, block);
    const blockEvents: EventRecord[] = [];
    txs.forEach((tx, i) => {
      tx.block = block;
      tx.txIndex = i;
      for (const ev of tx.events) {
        ev.blockHash = hash;
        ev.timestamp = ts;
        blockEvents.push(ev);
        let log = this.eventLogs.get(ev.contractAddress);
        if (!log) this.eventLogs.set(ev.contractAddress, (log = []));
        // Debug events take a slot in the counter but /events/contract hides them: the counter has gaps.
        log.push({ ...ev, hidden: ev.eventIndex === -3 });
      }
      this.txs.set(tx.txId, tx);
    });
    this.eventsByBlock.set(hash, blockEvents);
    return block;
  }

  private tipHash(from: number, to: number): string | undefined {
    const chain = this.chains[from * GROUPS + to] as Block[];
    return chain[chain.length - 1]?.hash;
  }

  height(from: number, to: number): number {
    return (this.chains[from * GROUPS + to] as Block[]).length - 1;
  }

  /** Mines one block on every chain, confirming the whole mempool. */
  mine(): Block[] {
    this.round++;
    const ts = Math.max(this.clock.now(), this.lastTimestamp() + 1);
    const pending = this.mempool;
    this.mempool = [];
    this.mempoolSpent.clear();
    this.mempoolOutputs.clear();
    const perChain: TxRecord[][] = Array.from({ length: GROUPS * GROUPS }, () => []);
    for (const tx of pending) {
      this.applyTx(tx);
      (perChain[tx.fromGroup * GROUPS + tx.toGroup] as TxRecord[]).push(tx);
    }
    const blocks: Block[] = [];
    for (let i = 0; i < GROUPS * GROUPS; i++) {
      blocks.push(this.addBlock(Math.floor(i / GROUPS), i % GROUPS, perChain[i] as TxRecord[], ts));
    }
    return blocks;
  }

  private lastTimestamp(): number {
    const chain = this.chains[0] as Block[];
    return chain[chain.length - 1]?.timestamp ?? 0;
  }

  get mempoolSize(): number {
    return this.mempool.length;
  }

  // ---------------------------------------------------------------- UTXO views

  /** Outputs an address can spend now: confirmed and not spent by the mempool, plus mempool outputs. */
  spendable(address: string): Utxo[] {
    const out: Utxo[] = [];
    for (const key of this.byAddress.get(address) ?? []) {
      if (!this.mempoolSpent.has(key)) out.push(this.utxos.get(key) as Utxo);
    }
    for (const u of this.mempoolOutputs.values()) {
      if (u.address === address && !this.mempoolSpent.has(u.key)) out.push(u);
    }
    return out;
  }

  balance(address: string, withMempool: boolean) {
    const utxos = withMempool
      ? this.spendable(address)
      : [...(this.byAddress.get(address) ?? [])].map((k) => this.utxos.get(k) as Utxo);
    const now = this.clock.now();
    let balance = 0n;
    let locked = 0n;
    const tokens = new Map<string, bigint>();
    const lockedTokens = new Map<string, bigint>();
    for (const u of utxos) {
      balance += u.amount;
      const isLocked = u.lockTime > now;
      if (isLocked) locked += u.amount;
      for (const t of u.tokens) {
        tokens.set(t.id, (tokens.get(t.id) ?? 0n) + t.amount);
        if (isLocked) lockedTokens.set(t.id, (lockedTokens.get(t.id) ?? 0n) + t.amount);
      }
    }
    return { balance, locked, tokens, lockedTokens, utxoNum: utxos.length };
  }

  /** Creates outputs for an address out of thin air (control API), confirmed by a mined block. */
  fund(address: string, amount: bigint, count: number, tokens: TokenAmount[] = []): TxRecord {
    const group = groupOfAddress(address);
    const tx = this.syntheticTransfer(
      group,
      Array.from({ length: count }, () => ({ address, amount, tokens })),
    );
    this.mempool.push(tx);
    this.txs.set(tx.txId, tx);
    for (const u of tx.creates) this.mempoolOutputs.set(u.key, u);
    return tx;
  }

  // ---------------------------------------------------------------- build / submit

  private selectInputs(
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
        String(dest.attoCoinAmount) !== String(dest.attoAlphAmount)
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
    let gasAmount: number | undefined;
    if (body.gasAmount !== undefined && body.gasAmount !== null) {
      if (typeof body.gasAmount !== 'number' || !Number.isInteger(body.gasAmount)) {
        throw new BadRequest('Invalid value for: body (gasAmount must be an integer)');
      }
      if (body.gasAmount < MIN_GAS || body.gasAmount > MAX_GAS) {
        throw new BadRequest(
          `Invalid gas amount ${body.gasAmount}: must be between ${MIN_GAS} and ${MAX_GAS}`,
        );
      }
      gasAmount = body.gasAmount;
    }
    let gasPrice = DEFAULT_GAS_PRICE;
    if (body.gasPrice !== undefined && body.gasPrice !== null) {
      gasPrice = parseIntStrict(body.gasPrice, 'gasPrice');
      if (gasPrice < DEFAULT_GAS_PRICE)
        throw new BadRequest(`Gas price ${gasPrice} too small, minimum is ${DEFAULT_GAS_PRICE}`);
    }
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
  private finishBuild(honest: Parameters<typeof encodeUnsignedTx>[0], fromGroup: number): BuildResult {
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
      const methods = this.scriptOr400(unsigned.scriptOpt, 'scriptOpt');
      try {
        this.runStaged(methods, caller, provided, txId, unsigned.fixedOutputs.length);
      } catch (e) {
        if (e instanceof ScriptVmError) throw new BadRequest(`TxScriptExeFailed(${e.message})`);
        if (e instanceof ScriptRejected) throw new BadRequest(e.message);
        throw e;
      }
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

  // ---------------------------------------------------------------- scripts: execute and deploy

  private scriptOr400(hex: unknown, field: string): Method[] {
    try {
      return decodeScript(hex, field);
    } catch (e) {
      if (e instanceof ScriptRejected) throw new BadRequest(e.message);
      throw e;
    }
  }

  private readonly methodFlags = new Map<string, Method[]>();

  private flagsOf(def: ContractDef): Method[] {
    let m = this.methodFlags.get(def.artifact.codeHash);
    if (!m) this.methodFlags.set(def.artifact.codeHash, (m = contractMethods(def.artifact.bytecode)));
    return m;
  }

  /** The sandbox contract whose artifact has this code and field layout, or a stored-only definition. */
  private defForCode(
    code: string,
    imm: Val[],
    mut: Val[],
  ): { def: ContractDef; fields: Record<string, Val> } {
    for (const def of this.defs) {
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

  /**
   * Runs a script on a staged copy of the contracts it touches. Nothing is changed until {@link commitStage}.
   * `txId` and `fixedOutputCount` place generated outputs and new contract ids as the node does.
   */
  runStaged(methods: Method[], caller: string, provided: Assets, txId: string, fixedOutputCount: number) {
    const group = groupOfAddress(caller);
    const clones = new Map<
      string,
      {
        orig: ContractInstance;
        clone: ContractInstance;
        prevAlph: bigint;
        prevTokens: Map<string, bigint>;
        prevKey: string;
      }
    >();
    const assetTouched: string[] = [];
    const created: ContractInstance[] = [];
    const transfers = new Map<string, Assets>();
    const events: EventRecord[] = [];
    const debugMessages: { contractAddress: string; message: string }[] = [];
    let gas = 1_000;
    const transferTo = (address: string, a: Assets) => {
      let t = transfers.get(address);
      if (!t) transfers.set(address, (t = noAssets()));
      addAssets(t, a);
    };
    const live = (id: string): ContractInstance | undefined => {
      const staged = clones.get(id)?.clone ?? created.find((c) => c.contractId === id);
      if (staged) return staged;
      const orig = [...this.contracts.values()].find((c) => c.contractId === id);
      if (!orig) return undefined;
      const clone: ContractInstance = { ...orig, fields: { ...orig.fields }, tokens: new Map(orig.tokens) };
      clones.set(id, {
        orig,
        clone,
        prevAlph: orig.alph,
        prevTokens: new Map(orig.tokens),
        prevKey: orig.outputKey,
      });
      return clone;
    };
    // Contract outputs in the order the VM generates them (creation, or the end of a call using assets).
    const order: ContractInstance[] = [];
    const contractOutputIndex = () => fixedOutputCount + order.length;
    const run = runScript(
      methods,
      {
        caller,
        callExternal: (contractId, methodIndex, args, returnLength) => {
          const c = live(contractId);
          const address = addressFromContractId(contractId);
          if (!c || c.group !== group) throw new ScriptVmError(`NonExistContract(${address})`);
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
          let r: ReturnType<Chain['execute']>;
          try {
            r = this.execute(c, methodIndex, args, caller, true, txId, 0);
          } catch (e) {
            if (e instanceof VmError) throw new ScriptVmError(e.message.replace(/^VM execution error: /, ''));
            throw e;
          }
          c.outputKey = keyBefore;
          gas += r.gasUsed;
          events.push(...r.events);
          debugMessages.push(...r.debugMessages);
          for (const u of r.generated) {
            transferTo(u.address, { alph: u.amount, tokens: new Map(u.tokens.map((t) => [t.id, t.amount])) });
          }
          const usedAssets = flags.useContractAssets || c.alph !== alphBefore || r.generated.length > 0;
          if (usedAssets && !assetTouched.includes(contractId) && !created.includes(c)) {
            c.outputKey = outputKey(txId, contractOutputIndex());
            assetTouched.push(contractId);
            order.push(c);
          }
          return r.returns;
        },
        createContract: (spec: CreateSpec) => {
          const index = contractOutputIndex();
          const contractId = nodeContractId(txId, index, group);
          const address = addressFromContractId(contractId);
          if (this.contracts.has(address)) throw new ScriptVmError(`ContractAlreadyExists(${address})`);
          if (spec.initial.alph < MINIMAL_CONTRACT_DEPOSIT)
            throw new ScriptVmError(`LowerThanContractMinimalBalance(${address}, ${spec.initial.alph})`);
          const { def, fields } = this.defForCode(spec.code, spec.immFields, spec.mutFields);
          const tokens = new Map(spec.initial.tokens);
          if (spec.issueTokenAmount !== undefined && spec.issueTokenAmount > 0n) {
            if (spec.issueTokenTo !== undefined)
              transferTo(spec.issueTokenTo, {
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
          created.push(inst);
          order.push(inst);
          // Creation costs a base plus the stored bytes, as the VM charges it (order of magnitude).
          gas += 32_000 + 10 * (spec.code.length / 2);
          events.push(
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
        },
        transferAlph: (_from, to, amount) => transferTo(to, { alph: amount, tokens: new Map() }),
      },
      provided,
    );
    gas += run.instrCount * 10;
    transferTo(caller, run.leftover);
    // Generated outputs: contract outputs as the calls finish, then the asset outputs at the end of the tx.
    const contractOutputs = order;
    const firstAssetIndex = fixedOutputCount + contractOutputs.length;
    const assetOutputs: Utxo[] = [];
    for (const [address, a] of transfers) {
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
      gas,
      clones,
      assetTouched,
      created,
      contractOutputs,
      assetOutputs,
      events,
      debugMessages,
    };
  }

  private commitStage(stage: ReturnType<Chain['runStaged']>): void {
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
    let stage: ReturnType<Chain['runStaged']>;
    try {
      if (this.scriptsToFailInBlock > 0) {
        this.scriptsToFailInBlock--;
        throw new ScriptVmError('AssertionFailed (made to fail in its block by the sandbox control API)');
      }
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
  private simulationResult(stage: ReturnType<Chain['runStaged']>) {
    return {
      contractInputs: stage.assetTouched.map((id) => {
        const p = stage.clones.get(id) as {
          orig: ContractInstance;
          prevAlph: bigint;
          prevTokens: Map<string, bigint>;
        };
        return Chain.assetState(p.orig.address, p.prevAlph, p.prevTokens);
      }),
      generatedOutputs: [
        ...stage.contractOutputs.map((c) => Chain.assetState(c.address, c.alph, c.tokens)),
        ...stage.assetOutputs.map((u) => Chain.assetState(u.address, u.amount, u.tokens)),
      ],
    };
  }

  private static estimateError(e: unknown): unknown {
    if (e instanceof ScriptVmError) return new BadRequest(`${NODE_ESTIMATE_PREFIX}${e.message}`);
    if (e instanceof ScriptRejected) return new BadRequest(e.message);
    return e;
  }

  private parseTokens(raw: unknown, field: string): Map<string, bigint> {
    const out = new Map<string, bigint>();
    if (raw === undefined || raw === null) return out;
    if (!Array.isArray(raw)) throw new BadRequest(`Invalid value for: body (${field} must be an array)`);
    raw.forEach((t: unknown, j) => {
      const tt = (t ?? {}) as Record<string, unknown>;
      if (typeof tt.id !== 'string' || !/^[0-9a-fA-F]{64}$/.test(tt.id))
        throw new BadRequest(`Invalid value for: body (${field}[${j}].id must be 32-byte hex)`);
      const a = parseIntStrict(tt.amount, `${field}[${j}].amount`);
      const id = tt.id.toLowerCase();
      if (a > 0n) out.set(id, (out.get(id) ?? 0n) + a);
    });
    return out;
  }

  private gasOptions(body: Record<string, unknown>): { gasAmount?: number; gasPrice: bigint } {
    let gasAmount: number | undefined;
    if (body.gasAmount !== undefined && body.gasAmount !== null) {
      if (typeof body.gasAmount !== 'number' || !Number.isInteger(body.gasAmount))
        throw new BadRequest('Invalid value for: body (gasAmount must be an integer)');
      if (body.gasAmount < MIN_GAS || body.gasAmount > MAX_GAS)
        throw new BadRequest(
          `Invalid gas amount ${body.gasAmount}: must be between ${MIN_GAS} and ${MAX_GAS}`,
        );
      gasAmount = body.gasAmount;
    }
    let gasPrice = DEFAULT_GAS_PRICE;
    if (body.gasPrice !== undefined && body.gasPrice !== null) {
      gasPrice = parseIntStrict(body.gasPrice, 'gasPrice');
      if (gasPrice < DEFAULT_GAS_PRICE)
        throw new BadRequest(`Gas price ${gasPrice} too small, minimum is ${DEFAULT_GAS_PRICE}`);
    }
    return { ...(gasAmount !== undefined ? { gasAmount } : {}), gasPrice };
  }

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
        throw Chain.estimateError(e);
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
    const m = structuredClone(methods) as Method[];
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
      tokens: this.parseTokens(body.tokens, 'tokens'),
    };
    // As the node does, the inputs also cover dust for each token, so the tokens the script does not use
    // can come back in valid outputs.
    const dust =
      body.dustAmount === undefined || body.dustAmount === null
        ? DUST_ATTO
        : parseIntStrict(body.dustAmount, 'dustAmount');
    provided.alph += dust * BigInt(provided.tokens.size);
    const gas = this.gasOptions(body);
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
    let built: ReturnType<Chain['buildScriptTx']>;
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
      throw Chain.estimateError(e);
    }
    const alph =
      body.initialAttoAlphAmount === undefined || body.initialAttoAlphAmount === null
        ? MINIMAL_CONTRACT_DEPOSIT
        : parseIntStrict(body.initialAttoAlphAmount, 'initialAttoAlphAmount');
    if (alph < MINIMAL_CONTRACT_DEPOSIT)
      throw new BadRequest('Expect 0.1 ALPH deposit to deploy a new contract');
    const tokens = this.parseTokens(body.initialTokenAmounts, 'initialTokenAmounts');
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
    const gas = this.gasOptions(body);
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
        const other = this.defs.find((d) => d.artifact.bytecode !== code) as ContractDef;
        code = other.artifact.bytecode;
      } else {
        const all = [...imm, ...mut];
        const at = Math.max(
          0,
          all.findIndex((v) => v.type === 'Address'),
        );
        if (all[at]) {
          all[at] = otherValue(all[at] as Val, attacker);
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

  /**
   * call-tx-script and call-contract with inputAssets: the script runs on staged state and nothing is
   * kept. The caller's input assets are what the script may approve.
   */
  private callerOf(group: number, callerRaw: unknown): string {
    const caller =
      callerRaw === undefined || callerRaw === null
        ? (this.accounts[group] as Account).address
        : checkAddress(callerRaw, 'callerAddress');
    if (groupOfAddress(caller) !== group)
      throw new BadRequest(`Invalid value for: body (callerAddress ${caller} is not in group ${group})`);
    return caller;
  }

  /** The caller's input assets (TestInputAsset[]); the sandbox simulates those of the caller only. */
  private inputAssetsOf(caller: string, inputAssets: unknown): { provided: Assets; txInputs: string[] } {
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
        tokens: this.parseTokens(asset.tokens, `inputAssets[${i}].asset.tokens`),
      });
      if (!txInputs.includes(address)) txInputs.push(address);
    });
    return { provided, txInputs };
  }

  simulateScript(methods: Method[], group: number, callerRaw: unknown, inputAssets: unknown) {
    const caller = this.callerOf(group, callerRaw);
    const { provided, txInputs } = this.inputAssetsOf(caller, inputAssets);
    const txId = bytesToHex(blake2b256(new TextEncoder().encode(`simulation ${this.nonceCounter++}`)));
    const stage = this.runStaged(methods, caller, provided, txId, 0);
    const bh = this.bestBlockHash(group);
    const ts = this.blocks.get(bh)?.timestamp ?? this.clock.now();
    return {
      returns: stage.run.returns,
      gasUsed: stage.gas,
      contracts: [...stage.clones.values()]
        .map((c) => c.clone)
        .concat(stage.created)
        .map((c) => this.contractState(c)),
      txInputs,
      txOutputs: [
        ...stage.contractOutputs.map((c) => this.contractOutputJson(c)),
        ...stage.assetOutputs.map((u) => this.assetOutputJson(u)),
      ],
      events: stage.events
        .filter((e) => e.eventIndex !== -3)
        .map((e) => ({
          blockHash: bh,
          timestamp: ts,
          contractAddress: e.contractAddress,
          eventIndex: e.eventIndex,
          fields: e.fields,
        })),
      debugMessages: stage.debugMessages,
    };
  }

  callTxScript(body: Record<string, unknown>) {
    const group = body.group;
    if (typeof group !== 'number' || !Number.isInteger(group) || group < 0 || group >= GROUPS)
      throw new BadRequest('Invalid value for: body (group must be an integer 0..3)');
    const methods = this.scriptOr400(body.bytecode, 'bytecode');
    try {
      return this.simulateScript(methods, group, body.callerAddress, body.inputAssets);
    } catch (e) {
      throw Chain.estimateError(e);
    }
  }

  /** call-contract with inputAssets, as the node runs it: a script approving the assets, then the call. */
  callWithAssets(
    c: ContractInstance,
    methodIndex: number,
    args: Val[],
    caller: unknown,
    inputAssets: unknown,
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
    return this.simulateScript(methods, c.group, caller, inputAssets);
  }

  // ---------------------------------------------------------------- queries

  status(txId: string, fromGroup?: number, toGroup?: number): Record<string, unknown> {
    const inMempool = this.mempool.find((t) => t.txId === txId);
    const rec = inMempool ?? this.txs.get(txId);
    if (!rec) return { type: 'TxNotFound' };
    if (
      (fromGroup !== undefined && fromGroup !== rec.fromGroup) ||
      (toGroup !== undefined && toGroup !== rec.toGroup)
    ) {
      return { type: 'TxNotFound' };
    }
    if (!rec.block) return { type: 'MemPooled' };
    const b = rec.block;
    const confirmations = (from: number, to: number) =>
      this.height(from, to) - this.heightAtRound(from, to, b.round) + 1;
    return {
      type: 'Confirmed',
      blockHash: b.hash,
      txIndex: rec.txIndex,
      chainConfirmations: this.height(b.chainFrom, b.chainTo) - b.height + 1,
      fromGroupConfirmations: confirmations(rec.fromGroup, rec.fromGroup),
      toGroupConfirmations: confirmations(rec.toGroup, rec.toGroup),
    };
  }

  private heightAtRound(from: number, to: number, round: number): number {
    const chain = this.chains[from * GROUPS + to] as Block[];
    // Every round mines one block per chain, so heights and rounds line up.
    return Math.min(
      chain.length - 1,
      chain.findIndex((b) => b.round >= round),
    );
  }

  txJson(rec: TxRecord): Record<string, unknown> {
    return {
      unsigned: rec.unsigned,
      scriptExecutionOk: rec.scriptExecutionOk,
      contractInputs: rec.contractInputs,
      generatedOutputs: rec.generatedOutputs,
      inputSignatures: rec.inputSignatures,
      scriptSignatures: rec.scriptSignatures,
    };
  }

  details(txId: string, fromGroup?: number, toGroup?: number): Record<string, unknown> {
    const rec = this.txs.get(txId);
    if (
      !rec ||
      !rec.block ||
      (fromGroup !== undefined && fromGroup !== rec.fromGroup) ||
      (toGroup !== undefined && toGroup !== rec.toGroup)
    ) {
      throw new NotFound(`Transaction ${txId} not found`, txId);
    }
    return this.txJson(rec);
  }

  blockJson(b: Block): Record<string, unknown> {
    return {
      hash: b.hash,
      timestamp: b.timestamp,
      chainFrom: b.chainFrom,
      chainTo: b.chainTo,
      height: b.height,
      deps: b.deps,
      transactions: b.txs.map((t) => this.txJson(t)),
      nonce: b.nonce,
      version: 0,
      depStateHash: b.depStateHash,
      txsHash: b.txsHash,
      target: b.target,
      ghostUncles: [],
    };
  }

  blocksBetween(fromTs: number, toTs: number): Record<string, unknown>[][] {
    return this.chains.map((chain) =>
      chain.filter((b) => b.timestamp >= fromTs && b.timestamp <= toTs).map((b) => this.blockJson(b)),
    );
  }

  assetOutputJson(u: Utxo): Record<string, unknown> {
    return {
      type: 'AssetOutput',
      hint: u.hint,
      key: u.key,
      attoAlphAmount: String(u.amount),
      address: u.address,
      tokens: u.tokens.map((t) => ({ id: t.id, amount: String(t.amount) })),
      lockTime: u.lockTime,
      message: u.message,
    };
  }

  // ---------------------------------------------------------------- events

  contractEvents(address: string, start: number, limit: number) {
    const log = this.eventLogs.get(address);
    if (!log || log.length === 0 || start > log.length) {
      throw new NotFound(`Contract events of ${address} not found`, address);
    }
    const events: Record<string, unknown>[] = [];
    let i = start;
    for (; i < log.length && events.length < limit; i++) {
      const e = log[i] as EventRecord & { hidden: boolean };
      if (e.hidden) continue;
      events.push({
        blockHash: e.blockHash,
        txId: e.txId,
        timestamp: e.timestamp,
        contractAddress: e.contractAddress,
        eventIndex: e.eventIndex,
        fields: e.fields,
      });
    }
    return { events, nextStart: i };
  }

  eventCount(address: string): number {
    const log = this.eventLogs.get(address);
    if (!log || log.length === 0)
      throw new NotFound(`Current events count for the contract ${address} not found`, address);
    return log.length;
  }

  eventsOfTx(txId: string) {
    const rec = this.txs.get(txId);
    const events = rec?.block ? rec.events : [];
    return events.map((e) => ({
      blockHash: e.blockHash,
      timestamp: e.timestamp,
      contractAddress: e.contractAddress,
      eventIndex: e.eventIndex,
      fields: e.fields,
    }));
  }

  eventsOfBlock(hash: string) {
    const events = this.eventsByBlock.get(hash);
    if (!events) throw new NotFound(`Block ${hash} not found`, hash);
    return events.map((e) => ({
      txId: e.txId,
      timestamp: e.timestamp,
      contractAddress: e.contractAddress,
      eventIndex: e.eventIndex,
      fields: e.fields,
    }));
  }

  // ---------------------------------------------------------------- contracts

  contractState(c: ContractInstance): Record<string, unknown> {
    const sig = c.def.artifact.fieldsSig;
    const imm: Val[] = [];
    const mut: Val[] = [];
    sig.names.forEach((n, i) => (sig.isMutable[i] ? mut : imm).push(c.fields[n] as Val));
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
        debugMessages.push({ contractAddress: c.address, message });
        events.push(
          this.pendingEvent(
            c.address,
            -3,
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
    const tx = this.scriptTx(c.group, `call ${c.address} ${dry.method}`);
    tx.call = { contract: c, method: dry.method, args, caller };
    this.mempool.push(tx);
    return { tx, returns: dry.returns };
  }

  queueDeploy(def: ContractDef, group: number, deployer: string): TxRecord {
    const tx = this.deployTx(def, group, deployer);
    this.mempool.push(tx);
    return tx;
  }

  findContract(ref: string): ContractInstance | undefined {
    return this.contracts.get(ref) ?? [...this.contracts.values()].find((c) => c.def.name === ref);
  }

  bestBlockHash(g: number): string {
    return this.tipHash(g, g) as string;
  }
}
