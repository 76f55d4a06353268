/**
 * The sandbox's ledger: an in-memory blockflow of 4 groups (16 chains) holding UTXOs, a mempool, blocks,
 * contract records and their event logs, and the queries the gateway answers from them. One submitted
 * transaction moves consistently through status, details, balances, blocks and events.
 *
 * What a contract call or a script does when its transaction is mined belongs to the VM
 * ({@link Ledger.applyContractEffects}, implemented in ../vm); building and submitting transfers is in
 * ./transfers.ts. The whole chain is assembled in ../chain.ts.
 *
 * Transaction bytes are built and parsed with the project's protocol core (src/core/protocol), and the
 * sandbox's own tests cross-check them with @alephium/web3's codec, so the two implementations police
 * each other.
 */
import {
  DEFAULT_GAS_PRICE,
  DUST_ATTO,
  addressFromContractId,
  blake2b256,
  bytesToHex,
  contractHint,
  contractIdFromTx,
  decodeUnsignedTx,
  encodeUnsignedTx,
  groupOfAddress,
  hexToBytes,
  outputKey,
  type DecodedUnsignedTx,
} from '../../src/core/protocol';
import { initialStateHashOf, valFromNode } from '../../src/core/vm';
import type { Clock } from '../clock';
import { debugVariant, fieldsByMutability, type ContractDef, type Val } from '../vm/projectContracts';
import { buildDeployScript, encodeFields } from '../vm/scriptCodec';
import {
  BadRequest,
  DEBUG_EVENT_INDEX,
  GENESIS_ALPH,
  GROUPS,
  MIN_GAS,
  NETWORK_ID,
  NotFound,
  deterministicAccount,
  systemEventAddress,
  type Account,
  type Block,
  type ContractInstance,
  type EventRecord,
  type TamperMode,
  type TokenAmount,
  type TxRecord,
  type Utxo,
} from './types';
import { UnknownWorldState, copyInstance, snapshotOf, type ContractsSnapshot } from './history';

function hashChainIndex(seed: string, chainIndex: number): string {
  const h = blake2b256(new TextEncoder().encode(seed));
  // The SDK finds a block's chain from its hash's last 2 bytes mod 16; make that hold.
  h[31] = ((h[31] as number) & 0xf0) | chainIndex;
  return bytesToHex(h);
}

export abstract class Ledger {
  readonly accounts: Account[] = [];
  /** An address of each group that tampering redirects funds to. */
  readonly attackers: Account[] = [];
  readonly contracts = new Map<string, ContractInstance>();
  readonly codes = new Map<string, string>();
  tamper: TamperMode = 'none';
  /**
   * Script txs still to lose a race when mined (control API `/scripts/fail-in-block`): what a state change
   * between a dry run and the block does on a real node. The competing change is mined in a block before
   * the script's, so the script fails in its block for a reason its state explains, and the tx is kept
   * with `scriptExecutionOk: false` ({@link planRace}).
   */
  scriptsToFailInBlock = 0;

  protected readonly utxos = new Map<string, Utxo>();
  protected readonly byAddress = new Map<string, Set<string>>();
  protected readonly spent = new Set<string>();
  protected mempool: TxRecord[] = [];
  protected readonly mempoolSpent = new Map<string, string>();
  protected readonly mempoolOutputs = new Map<string, Utxo>();
  readonly txs = new Map<string, TxRecord>();
  private readonly chains: Block[][] = [];
  readonly blocks = new Map<string, Block>();
  private round = 0;
  /** Blocks a fork replaced: still known by hash, no longer in their chain. */
  private readonly abandoned = new Set<string>();
  private forks = 0;
  protected nonceCounter = 0;
  private readonly eventLogs = new Map<string, (EventRecord & { hidden: boolean })[]>();
  private readonly eventsByBlock = new Map<string, EventRecord[]>();
  /** The contracts after each block (history.ts); blocks of a round without transactions share one. */
  private readonly stateAfter = new Map<string, ContractsSnapshot>();
  private lastSnapshot: ContractsSnapshot | undefined;
  private stateChangedSinceSnapshot = true;
  /** The block a pinned call runs against (its events are stamped with it), while it runs. */
  private pinnedBlock: string | undefined;
  /** Honest decodings of tampered builds, for the 'decode-lies' mode. */
  protected readonly lies = new Map<string, DecodedUnsignedTx>();

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
  protected syntheticTransfer(
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

  protected recordFromUnsigned(
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

  /**
   * A contract-activity tx: no asset inputs, `scriptOpt` (the script a client would have sent for it, so it
   * decodes into the call or deploy it stands for), effects applied when mined.
   */
  protected scriptTx(group: number, label: string, scriptOpt: string): TxRecord {
    const txId = bytesToHex(
      blake2b256(new TextEncoder().encode(`sandbox script tx ${label} ${this.nonceCounter++}`)),
    );
    const unsigned: DecodedUnsignedTx = {
      txId,
      version: 0,
      networkId: NETWORK_ID,
      scriptOpt,
      gasAmount: 30_000,
      gasPrice: String(DEFAULT_GAS_PRICE),
      inputs: [],
      fixedOutputs: [],
    };
    return this.recordFromUnsigned(unsigned, group, group, [], []);
  }

  /** A deploy by the sandbox itself: the debug code when there is one, as @alephium/cli deploys on a devnet. */
  protected deployTx(release: ContractDef, group: number, deployer: string): TxRecord {
    const def = debugVariant(release);
    const fields = def.initialFields(deployer);
    const tx = this.scriptTx(group, `deploy ${def.name}`, deployScriptOf(def, deployer, fields));
    const contractId = contractIdFromTx(tx.txId, 0, group);
    const address = addressFromContractId(contractId);
    const inst: ContractInstance = {
      def,
      address,
      contractId,
      group,
      deployTxId: tx.txId,
      fields,
      alph: def.initialAlph,
      tokens: new Map(def.initialSelfTokens > 0n ? [[contractId, def.initialSelfTokens]] : []),
      initialStateHash: initialStateHashOfFields(def, fields),
      outputKey: outputKey(tx.txId, 0),
    };
    tx.deploy = inst;
    tx.generatedOutputs.push(this.contractOutputJson(inst));
    return tx;
  }

  protected contractOutputJson(c: ContractInstance): Record<string, unknown> {
    return {
      type: 'ContractOutput',
      hint: contractHint(c.contractId),
      key: c.outputKey,
      attoAlphAmount: String(c.alph),
      address: c.address,
      tokens: [...c.tokens].filter(([, a]) => a > 0n).map(([id, amount]) => ({ id, amount: String(amount) })),
    };
  }

  /**
   * Runs a mined transaction's contract call or script (the VM's part): it may emit events, move contract
   * assets and add generated outputs to `tx.creates` before they enter the UTXO set.
   */
  protected abstract applyContractEffects(tx: TxRecord): void;

  /** Moves a tx's effects into the ledger (called when it is mined, or at genesis). */
  private applyTx(tx: TxRecord): void {
    this.stateChangedSinceSnapshot = true;
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
    this.applyContractEffects(tx);
    for (const u of tx.creates) this.addUtxo(u);
  }

  protected pendingEvent(
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
    this.stateAfter.set(hash, this.currentSnapshot());
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
        log.push({ ...ev, hidden: ev.eventIndex === DEBUG_EVENT_INDEX });
      }
      this.txs.set(tx.txId, tx);
    });
    this.eventsByBlock.set(hash, blockEvents);
    return block;
  }

  /**
   * Abandons the tip of chain (chainFrom, chainTo) for a sibling: a block at the same height on the same
   * parents, holding the same transactions (re-included), with a new hash and a later timestamp, as when
   * a competing block wins on a node. What the node does then, and the sandbox with it:
   * - the chain's listings (`/blockflow/blocks`, `/blockflow/blocks-with-events`) hold the sibling only;
   * - the abandoned block is still known: by hash, its header, its events by block hash (the node never
   *   deletes a block it validated); `isInMainChain` tells them apart;
   * - each re-included tx's status, details and events by tx id point at the sibling; its contract events
   *   keep their txId and eventIndex and move to the sibling in the contract's log, which holds each once,
   *   so `current-count` does not change (a node logs the events of every block it executes, so its
   *   counter may grow by the abandoned copies: not reproduced here);
   * - the contracts' state after the sibling is the abandoned block's (the same txs on the same parents).
   * Blocks of other chains that named the abandoned block among their deps keep naming it.
   */
  fork(chainFrom: unknown, chainTo: unknown): ForkResult {
    const from = chainGroup(chainFrom, 'chainFrom');
    const to = chainGroup(chainTo, 'chainTo');
    const chainIndex = from * GROUPS + to;
    const chain = this.chains[chainIndex] as Block[];
    const old = chain[chain.length - 1] as Block;
    // Genesis has no parent to fork from, and its txs hold the genesis allocations and contracts.
    if (old.height === 0)
      throw new BadRequest(
        `chain ${from}->${to} holds only its genesis block, which has no sibling: mine a block first`,
      );
    const ts = Math.max(this.clock.now(), old.timestamp + 1);
    const hash = hashChainIndex(`fork ${++this.forks} of ${old.hash} at ${ts}`, chainIndex);
    const sibling: Block = {
      ...old,
      hash,
      timestamp: ts,
      txs: [...old.txs],
      nonce: bytesToHex(blake2b256(new TextEncoder().encode(`nonce ${hash}`)).slice(0, 24)),
    };
    chain[chain.length - 1] = sibling;
    this.blocks.set(hash, sibling);
    this.abandoned.add(old.hash);
    this.stateAfter.set(hash, this.stateAfter.get(old.hash) as ContractsSnapshot);
    const moved = new Set<string>();
    const siblingEvents: EventRecord[] = [];
    for (const tx of sibling.txs) {
      tx.block = sibling;
      // New records: the abandoned block's own list keeps the events as it carried them.
      tx.events = tx.events.map((ev) => ({ ...ev, blockHash: hash, timestamp: ts }));
      for (const ev of tx.events) {
        siblingEvents.push(ev);
        moved.add(ev.contractAddress);
      }
    }
    this.eventsByBlock.set(hash, siblingEvents);
    for (const address of moved) {
      for (const entry of this.eventLogs.get(address) ?? []) {
        if (entry.blockHash !== old.hash) continue;
        entry.blockHash = hash;
        entry.timestamp = ts;
      }
    }
    return {
      chainFrom: from,
      chainTo: to,
      height: sibling.height,
      abandoned: old.hash,
      replacement: hash,
      timestamp: ts,
      txIds: sibling.txs.map((t) => t.txId),
    };
  }

  /** `/blockflow/is-block-in-main-chain`: false for a block a fork abandoned; NotFound for an unknown one. */
  isInMainChain(hash: string): boolean {
    if (!this.blocks.has(hash))
      throw new NotFound(`The block ${hash} does not exist, please check if your full node synced`, hash);
    return !this.abandoned.has(hash);
  }

  private tipHash(from: number, to: number): string | undefined {
    const chain = this.chains[from * GROUPS + to] as Block[];
    return chain[chain.length - 1]?.hash;
  }

  height(from: number, to: number): number {
    return (this.chains[from * GROUPS + to] as Block[]).length - 1;
  }

  /**
   * The race a script tx of this round is made to lose (`scriptsToFailInBlock`): the competing changes to
   * mine a round before it and the changes that undo them a round after; undefined when there is none.
   */
  protected abstract planRace(
    pending: readonly TxRecord[],
  ): { before: TxRecord[]; after: TxRecord[] } | undefined;

  /**
   * Mines one block on every chain, confirming the whole mempool, and returns those blocks. When a script
   * tx is made to lose a race, the competing change gets a round of its own before, and its undoing one
   * after, so three rounds are mined.
   */
  mine(): Block[] {
    return this.mineRounds(undefined);
  }

  /**
   * Mines `rounds` rounds as {@link mine} does, but timed `ageMs` in the past: blocks a scanner of
   * `/blockflow/blocks-with-events` sees only after it has read their window, as when a block reaches the
   * node late. As on a node, a block is still timed after its parent, so the first round must come after
   * the newest block of every chain (each round mines on all of them); later rounds follow 1 ms apart.
   * Refused (BadRequest) before anything is mined or taken from the mempool.
   */
  mineLate(ageMs: unknown, rounds = 1): Block[] {
    if (typeof ageMs !== 'number' || !Number.isSafeInteger(ageMs) || ageMs < 0)
      throw new BadRequest(
        `ageMs must be a non-negative integer of milliseconds, got ${JSON.stringify(ageMs)}`,
      );
    const at = this.clock.now() - ageMs;
    const newest = this.newestTimestamp();
    if (at <= newest)
      throw new BadRequest(
        `ageMs ${ageMs} would time the blocks at ${at}, not after the newest block (${newest}): a block is timed after its parent, so a late block falls between the last block mined and now`,
      );
    let blocks: Block[] = [];
    for (let i = 0; i < rounds; i++) blocks = this.mineRounds(i === 0 ? at : this.newestTimestamp() + 1);
    return blocks;
  }

  /** One mining step (three rounds when a race is planned), timed from `at` when given, else by the clock. */
  private mineRounds(at: number | undefined): Block[] {
    const pending = this.mempool;
    this.mempool = [];
    this.mempoolSpent.clear();
    this.mempoolOutputs.clear();
    const race = this.scriptsToFailInBlock > 0 ? this.planRace(pending) : undefined;
    let offset = 0;
    const next = () => (at === undefined ? undefined : at + offset++);
    if (race) this.mineRound(race.before, next());
    const blocks = this.mineRound(pending, next());
    if (race) this.mineRound(race.after, next());
    return blocks;
  }

  private mineRound(pending: readonly TxRecord[], at: number | undefined): Block[] {
    this.round++;
    const ts = at ?? Math.max(this.clock.now(), this.newestTimestamp() + 1);
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

  /** The newest tip of all chains: late rounds and forks time one chain's tip apart from the others'. */
  private newestTimestamp(): number {
    let newest = 0;
    for (const chain of this.chains) newest = Math.max(newest, chain[chain.length - 1]?.timestamp ?? 0);
    return newest;
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

  /** `/blockflow/blocks-with-events`: the same blocks, each with its contract events as by block hash. */
  blocksWithEventsBetween(fromTs: number, toTs: number): { block: unknown; events: unknown[] }[][] {
    return this.chains.map((chain) =>
      chain
        .filter((b) => b.timestamp >= fromTs && b.timestamp <= toTs)
        .map((b) => ({ block: this.blockJson(b), events: this.blockEventsJson(b.hash) })),
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
    if (!this.eventsByBlock.has(hash)) throw new NotFound(`Block ${hash} not found`, hash);
    return this.blockEventsJson(hash);
  }

  /** A block's events as the node lists them by block hash (no block hash in each: it is the key). */
  private blockEventsJson(hash: string) {
    return (this.eventsByBlock.get(hash) ?? []).map((e) => ({
      txId: e.txId,
      timestamp: e.timestamp,
      contractAddress: e.contractAddress,
      eventIndex: e.eventIndex,
      fields: e.fields,
    }));
  }

  findContract(ref: string): ContractInstance | undefined {
    return this.contracts.get(ref) ?? [...this.contracts.values()].find((c) => c.def.name === ref);
  }

  private currentSnapshot(): ContractsSnapshot {
    if (this.stateChangedSinceSnapshot || !this.lastSnapshot) {
      this.lastSnapshot = snapshotOf(this.contracts);
      this.stateChangedSinceSnapshot = false;
    }
    return this.lastSnapshot;
  }

  /**
   * Runs a dry run against the contracts as they were after block `blockHash` (the node's
   * `worldStateBlockHash`), or against today's when it is undefined. The run sees copies of that block's
   * contracts in `contracts` and cannot change them; today's come back afterwards, whatever happens.
   */
  withWorldState<T>(blockHash: string | undefined, run: () => T): T {
    if (blockHash === undefined) return run();
    const past = this.stateAfter.get(blockHash);
    if (!past) throw new UnknownWorldState(blockHash);
    const today = new Map(this.contracts);
    this.contracts.clear();
    for (const [address, c] of past) this.contracts.set(address, copyInstance(c));
    const outer = this.pinnedBlock;
    this.pinnedBlock = blockHash;
    try {
      return run();
    } finally {
      this.pinnedBlock = outer;
      this.contracts.clear();
      for (const [address, c] of today) this.contracts.set(address, c);
    }
  }

  /** A block's header (`/blockflow/headers/{hash}`). */
  headerJson(b: Block): Record<string, unknown> {
    return {
      hash: b.hash,
      timestamp: b.timestamp,
      chainFrom: b.chainFrom,
      chainTo: b.chainTo,
      height: b.height,
      deps: b.deps,
    };
  }

  /**
   * A dry run's events as the node reports them: at the block whose state it ran against (the group's best
   * block unless pinned), without Debug events.
   */
  simulatedEvents(events: EventRecord[], group: number) {
    const bh = this.pinnedBlock ?? this.bestBlockHash(group);
    const ts = this.blocks.get(bh)?.timestamp ?? this.clock.now();
    return events
      .filter((e) => e.eventIndex !== DEBUG_EVENT_INDEX)
      .map((e) => ({
        blockHash: bh,
        timestamp: ts,
        contractAddress: e.contractAddress,
        eventIndex: e.eventIndex,
        fields: e.fields,
      }));
  }

  bestBlockHash(g: number): string {
    return this.tipHash(g, g) as string;
  }
}

/** What `fork` did: the chain, the height, the abandoned and the replacing block, the re-included txs. */
export interface ForkResult {
  chainFrom: number;
  chainTo: number;
  height: number;
  abandoned: string;
  replacement: string;
  timestamp: number;
  txIds: string[];
}

/** A chain's group given to the control API or a test: an integer from 0 to GROUPS - 1. */
function chainGroup(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= GROUPS)
    throw new BadRequest(`${field} must be an integer from 0 to ${GROUPS - 1}, got ${JSON.stringify(value)}`);
  return value;
}

/** The deploy script of one of the sandbox's own contracts, as the node builds it for a deploy request. */
/** The node's initial state hash of a contract created with these fields (what its state reports). */
function initialStateHashOfFields(def: ContractDef, fields: Record<string, Val>): string {
  const { imm, mut } = fieldsByMutability(def.artifact.fieldsSig, fields);
  const codeHash = blake2b256(hexToBytes(def.artifact.bytecode));
  return bytesToHex(initialStateHashOf(codeHash, imm.map(valFromNode), mut.map(valFromNode)));
}

function deployScriptOf(def: ContractDef, deployer: string, fields: Record<string, Val>): string {
  const { imm, mut } = fieldsByMutability(def.artifact.fieldsSig, fields);
  return buildDeployScript({
    from: deployer,
    code: def.artifact.bytecode,
    immHex: encodeFields(imm),
    mutHex: encodeFields(mut),
    alph: def.initialAlph,
    tokens: [],
    ...(def.initialSelfTokens > 0n ? { issueTokenAmount: def.initialSelfTokens } : {}),
    dust: DUST_ATTO,
  });
}
