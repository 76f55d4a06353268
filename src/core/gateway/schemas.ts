/**
 * Response schemas (zod v4). The spec is the source of truth; where it says "not shown" the node's OpenAPI
 * shapes are used. Objects are loose (node-only extra fields pass through) but every field we rely on is
 * checked, so a caller never receives a half-parsed body.
 *
 * Free text a gateway writes (call failures, debug messages, version and hashrate strings, value types,
 * unknown variant names) is cleaned where it enters: control, escape and bidi characters removed, one
 * line, and capped ({@link gatewayText}), so no later reader has to trust its size or its characters.
 */
// The namespace import lets esbuild leave out zod's locales (about 360 KB of the bundle).
import * as z from 'zod';
import { parseAddress } from '../protocol/address';
import { cleanText } from '../text/inert';
import { SchemaError } from './errors';

/** The longest call failure text kept (the node writes a line; a gateway may send megabytes). */
export const MAX_CALL_ERROR_CHARS = 2048;
/** Debug messages kept from one run (a loop can emit thousands), and the longest kept of each. */
export const MAX_DEBUG_MESSAGES = 200;
export const MAX_DEBUG_MESSAGE_CHARS = 1024;
/** Short labels: a version, a hashrate, a value's type, a variant's name. */
const LABEL_CHARS = 64;

/** A free-text string from the gateway, cleaned (one line, no control or bidi characters) and capped. */
function gatewayText(max: number) {
  return z.string().transform((text) => cleanText(text, max));
}

const int = z.number().int();
const nonNegInt = int.min(0);
const group = int.min(0).max(3);
const hex = z.string().regex(/^(?:[0-9a-fA-F]{2})*$/, 'expected an even-length hex string');
const hash32 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'expected a 32-byte hex string');
const amount = z.string().regex(/^\d+$/, 'expected a non-negative integer string');

export const TokenSchema = z.looseObject({ id: hash32, amount });
export type Token = z.infer<typeof TokenSchema>;

/** A Val as the node returns it: `{type, value}`. Nested arrays only appear in arguments. */
export const ValSchema = z.looseObject({
  type: gatewayText(LABEL_CHARS),
  value: z.union([z.string(), z.boolean(), z.array(z.unknown())]),
});
export type Val = z.infer<typeof ValSchema>;

/**
 * A sum type discriminated by `type` that tolerates unknown variants: a new node version may add one,
 * and the UI should show "unknown" rather than crash. A known variant with a bad shape is still an error.
 */
function tagged<C extends Record<string, z.ZodType>>(cases: C) {
  return z.looseObject({ type: z.string() }).transform((raw, ctx) => {
    const schema = Object.prototype.hasOwnProperty.call(cases, raw.type) ? cases[raw.type] : undefined;
    if (!schema) {
      const rawType = cleanText(raw.type, LABEL_CHARS);
      // Widened on purpose: an unknown case promises callers nothing beyond a record.
      const unknownRaw: Record<string, unknown> = raw;
      return { type: 'Unknown' as const, rawType, raw: unknownRaw };
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.issues.push({ code: 'custom', message: issue.message, input: raw, path: issue.path });
      }
      return z.NEVER;
    }
    return parsed.data as z.output<C[keyof C]>;
  });
}

export interface UnknownVariant {
  readonly type: 'Unknown';
  /** The `type` the server sent. */
  readonly rawType: string;
  readonly raw: Record<string, unknown>;
}

// ---- transactions ----------------------------------------------------------------------------------

const OutputRefSchema = z.looseObject({ hint: int, key: hash32 });

export const FixedAssetOutputSchema = z.looseObject({
  hint: int,
  key: hash32,
  attoAlphAmount: amount,
  address: z.string().min(1),
  tokens: z.array(TokenSchema),
  lockTime: int,
  message: hex,
});

export const UnsignedTxSchema = z.looseObject({
  txId: hash32,
  version: int,
  networkId: int,
  scriptOpt: z.string().optional(),
  gasAmount: nonNegInt,
  gasPrice: amount,
  inputs: z.array(z.looseObject({ outputRef: OutputRefSchema, unlockScript: hex })),
  fixedOutputs: z.array(FixedAssetOutputSchema),
});
export type UnsignedTx = z.infer<typeof UnsignedTxSchema>;

/** Generated outputs: AssetOutput or ContractOutput; the fields both share are checked. */
const OutputSchema = z.looseObject({
  type: z.string(),
  hint: int,
  key: hash32,
  attoAlphAmount: amount,
  address: z.string().min(1),
  tokens: z.array(TokenSchema),
});

const BuiltTxCore = {
  unsignedTx: hex.min(1),
  gasAmount: nonNegInt,
  gasPrice: amount,
  txId: hash32,
  fromGroup: group,
  toGroup: group,
};
export const BuiltTransferSchema = z.looseObject({
  ...BuiltTxCore,
  // Groupless (Danube) senders may need funding transactions signed and submitted first.
  fundingTxs: z.array(z.looseObject(BuiltTxCore)).optional(),
});
export type BuiltTransfer = z.infer<typeof BuiltTransferSchema>;

/** Assets of an address before or after a script runs (the node's AddressAssetState). */
export const AddressAssetStateSchema = z.looseObject({
  address: z.string().min(1),
  attoAlphAmount: amount,
  tokens: z.array(TokenSchema).optional(),
});
export type AddressAssetState = z.infer<typeof AddressAssetStateSchema>;

/** `POST /contracts/unsigned-tx/execute-script`: a built script transaction (BuildSimpleExecuteScriptTxResult). */
export const BuiltExecuteScriptSchema = z.looseObject({
  ...BuiltTxCore,
  simulationResult: z
    .looseObject({
      contractInputs: z.array(AddressAssetStateSchema),
      generatedOutputs: z.array(AddressAssetStateSchema),
    })
    .optional(),
});
export type BuiltExecuteScript = z.infer<typeof BuiltExecuteScriptSchema>;

/** `POST /contracts/unsigned-tx/deploy-contract` (BuildSimpleDeployContractTxResult). */
export const BuiltDeployContractSchema = z.looseObject({
  ...BuiltTxCore,
  contractAddress: z.string().min(1),
});
export type BuiltDeployContract = z.infer<typeof BuiltDeployContractSchema>;

export const SubmittedTxSchema = z.looseObject({ txId: hash32, fromGroup: group, toGroup: group });
export type SubmittedTx = z.infer<typeof SubmittedTxSchema>;

const ConfirmedFields = {
  blockHash: hash32,
  txIndex: nonNegInt,
  chainConfirmations: nonNegInt,
  fromGroupConfirmations: nonNegInt,
  toGroupConfirmations: nonNegInt,
};
export const TxStatusSchema = tagged({
  Confirmed: z.looseObject({ type: z.literal('Confirmed'), ...ConfirmedFields }),
  // `Conflicted` (node only): included in a block but its inputs were spent elsewhere; not a success.
  Conflicted: z.looseObject({ type: z.literal('Conflicted'), ...ConfirmedFields }),
  MemPooled: z.looseObject({ type: z.literal('MemPooled') }),
  TxNotFound: z.looseObject({ type: z.literal('TxNotFound') }),
});
export type TxStatus = z.infer<typeof TxStatusSchema>;

export const TxDetailsSchema = z.looseObject({
  unsigned: UnsignedTxSchema,
  scriptExecutionOk: z.boolean().optional(),
  contractInputs: z.array(OutputRefSchema),
  generatedOutputs: z.array(OutputSchema),
  inputSignatures: z.array(hex),
  scriptSignatures: z.array(hex),
});
export type TxDetails = z.infer<typeof TxDetailsSchema>;

export const DecodedUnsignedTxSchema = z.looseObject({
  fromGroup: group.optional(),
  toGroup: group.optional(),
  unsignedTx: UnsignedTxSchema,
});
export type DecodedUnsignedTx = z.infer<typeof DecodedUnsignedTxSchema>;

export const SweepResultSchema = z.looseObject({
  unsignedTxs: z.array(
    z.looseObject({
      txId: hash32,
      unsignedTx: hex.min(1),
      gasAmount: nonNegInt.optional(),
      gasPrice: amount.optional(),
    }),
  ),
  fromGroup: group.optional(),
  toGroup: group.optional(),
});
export type SweepResult = z.infer<typeof SweepResultSchema>;

// ---- events ------------------------------------------------------------------------------------------

const EventCore = {
  timestamp: int.optional(),
  contractAddress: z.string().min(1),
  eventIndex: int,
  fields: z.array(ValSchema),
};
export const ContractEventSchema = z.looseObject({ blockHash: hash32, txId: hash32, ...EventCore });
export type ContractEvent = z.infer<typeof ContractEventSchema>;

export const ContractEventsSchema = z.looseObject({
  events: z.array(ContractEventSchema),
  nextStart: nonNegInt,
});
export type ContractEventsPage = z.infer<typeof ContractEventsSchema>;

export const EventByTxIdSchema = z.looseObject({ blockHash: hash32, ...EventCore });
export type EventByTxId = z.infer<typeof EventByTxIdSchema>;
export const EventsByTxIdSchema = z.looseObject({ events: z.array(EventByTxIdSchema) });

export const EventByBlockHashSchema = z.looseObject({ txId: hash32, ...EventCore });
export type EventByBlockHash = z.infer<typeof EventByBlockHashSchema>;
export const EventsByBlockHashSchema = z.looseObject({ events: z.array(EventByBlockHashSchema) });

/** The spec shows `{count}`; the node returns a bare integer. Both become a number. */
export const EventCountSchema = z.union([
  nonNegInt,
  z.looseObject({ count: nonNegInt }).transform((v) => v.count),
]);

// ---- infos, addresses, blockflow ---------------------------------------------------------------------

/**
 * The spec puts `isSynced` on each node; the node puts `synced` at the top. Both are accepted and folded
 * into one `synced` flag; a body with neither is a mismatch (we could not tell the sync state).
 */
export const SelfCliqueSchema = z
  .looseObject({
    cliqueId: gatewayText(LABEL_CHARS * 2).optional(),
    nodes: z.array(z.looseObject({ isSynced: z.boolean().optional() })),
    selfReady: z.boolean().optional(),
    synced: z.boolean().optional(),
  })
  .transform((raw, ctx) => {
    const perNode = raw.nodes.map((n) => n.isSynced);
    if (raw.synced === undefined && (perNode.length === 0 || perNode.some((s) => s === undefined))) {
      ctx.issues.push({
        code: 'custom',
        message: 'neither `synced` nor `nodes[].isSynced` is present',
        input: raw,
        path: ['synced'],
      });
      return z.NEVER;
    }
    const synced = raw.synced ?? perNode.every((s) => s === true);
    return { ...raw, synced };
  });
export type SelfClique = z.infer<typeof SelfCliqueSchema>;

export const VersionSchema = z.looseObject({ version: z.string().min(1).pipe(gatewayText(LABEL_CHARS)) });
export type NodeVersion = z.infer<typeof VersionSchema>;

export const ChainParamsSchema = z.looseObject({
  networkId: int,
  numZerosAtLeastInHash: int.optional(),
  groupNumPerBroker: int.optional(),
  groups: int.min(1),
});
export type ChainParams = z.infer<typeof ChainParamsSchema>;

export const HashrateSchema = z.looseObject({ hashrate: gatewayText(LABEL_CHARS) });
export type Hashrate = z.infer<typeof HashrateSchema>;

export const AddressGroupSchema = z.looseObject({ group });

export const BalanceSchema = z.looseObject({
  balance: amount,
  balanceHint: gatewayText(LABEL_CHARS * 2).optional(),
  lockedBalance: amount,
  lockedBalanceHint: gatewayText(LABEL_CHARS * 2).optional(),
  tokenBalances: z.array(TokenSchema).optional(),
  lockedTokenBalances: z.array(TokenSchema).optional(),
  utxoNum: nonNegInt,
});
export type Balance = z.infer<typeof BalanceSchema>;

export const ChainInfoSchema = z.looseObject({ currentHeight: nonNegInt });
export type ChainInfo = z.infer<typeof ChainInfoSchema>;

export const BlockEntrySchema = z.looseObject({
  hash: hash32,
  timestamp: int,
  chainFrom: group,
  chainTo: group,
  height: nonNegInt,
  deps: z.array(hash32),
  transactions: z.array(TxDetailsSchema),
});
export type BlockEntry = z.infer<typeof BlockEntrySchema>;

/**
 * `GET /blockflow/headers/{hash}`: a block's header. `deps` holds 2G - 1 hashes for G groups: the
 * other groups' blocks it depends on, then one per chain of its own group (its parent on its chain among them).
 */
export const BlockHeaderSchema = z.looseObject({
  hash: hash32,
  timestamp: int,
  chainFrom: group,
  chainTo: group,
  height: nonNegInt,
  deps: z.array(hash32),
});
export type BlockHeader = z.infer<typeof BlockHeaderSchema>;

/** One array of blocks per chain (16 chains for 4 groups). */
export const BlocksSchema = z.looseObject({ blocks: z.array(z.array(BlockEntrySchema)) });
export type Blocks = z.infer<typeof BlocksSchema>;

/** Chains of 4 groups (the `group` above): a node answers at most one array per chain. */
const MAX_CHAINS = 16;
/**
 * The longest contract address read: a P2C address is 33 bytes, at most 46 base58 digits. Checked before
 * the address is decoded: base58 decoding takes time quadratic in the length (the decoder takes up to
 * 4096 digits, a few milliseconds each), and one body can hold thousands of events.
 */
const MAX_CONTRACT_ADDRESS_CHARS = 64;

/**
 * A contract address checked as one (P2C, well formed): a scan of blocks-with-events files every event
 * of the chain under its `contractAddress`, so that field decides which watched contract an event is for.
 * One refinement, the length first, so that an oversized string is never decoded.
 */
const contractAddress = z.string().refine((address) => {
  if (address.length === 0 || address.length > MAX_CONTRACT_ADDRESS_CHARS) return false;
  try {
    return parseAddress(address).type === 'P2C';
  } catch {
    return false;
  }
}, `expected a contract (P2C) address of at most ${MAX_CONTRACT_ADDRESS_CHARS} characters`);

/**
 * An event of a block as `/blockflow/blocks-with-events` lists it: the node's ContractEventByBlockHash,
 * which `/events/block-hash` answers too (EventByBlockHashSchema), with its address checked as well.
 */
export const ContractEventByBlockHashSchema = EventByBlockHashSchema.extend({ contractAddress });
export type ContractEventByBlockHash = z.infer<typeof ContractEventByBlockHashSchema>;

/** A block with its contract events, in the order the block's transactions emitted them. */
export const BlockAndEventsSchema = z.looseObject({
  block: BlockEntrySchema,
  events: z.array(ContractEventByBlockHashSchema),
});
export type BlockAndEvents = z.infer<typeof BlockAndEventsSchema>;

/** `GET /blockflow/blocks-with-events` (node BlocksAndEventsPerTimeStampRange): one array per chain. */
export const BlocksAndEventsSchema = z.looseObject({
  blocksAndEvents: z.array(z.array(BlockAndEventsSchema)).max(MAX_CHAINS),
});
export type BlocksAndEvents = z.infer<typeof BlocksAndEventsSchema>;

// ---- contracts ----------------------------------------------------------------------------------------

export const ContractStateSchema = z.looseObject({
  address: z.string().min(1),
  bytecode: hex,
  codeHash: hash32,
  initialStateHash: hash32.optional(),
  immFields: z.array(ValSchema),
  mutFields: z.array(ValSchema),
  asset: z.looseObject({ attoAlphAmount: amount, tokens: z.array(TokenSchema).optional() }),
});
export type ContractState = z.infer<typeof ContractStateSchema>;

/** The node returns the bytecode as a bare JSON string; an object form is accepted too. */
export const ContractCodeSchema = z.union([
  hex,
  z.looseObject({ bytecode: hex }).transform((v) => v.bytecode),
]);

/**
 * A run's debug messages: each cleaned and capped, at most {@link MAX_DEBUG_MESSAGES} of them; when
 * there were more, the last one kept says how many were left out.
 */
const DebugMessagesSchema = z
  .array(
    z.looseObject({
      contractAddress: gatewayText(LABEL_CHARS * 2),
      message: gatewayText(MAX_DEBUG_MESSAGE_CHARS),
    }),
  )
  .default([])
  .transform((messages) => {
    if (messages.length <= MAX_DEBUG_MESSAGES) return messages;
    const left = messages.length - (MAX_DEBUG_MESSAGES - 1);
    return [
      ...messages.slice(0, MAX_DEBUG_MESSAGES - 1),
      {
        contractAddress: messages[MAX_DEBUG_MESSAGES - 1]!.contractAddress,
        message: `… ${left} more debug message(s) were not kept (the first ${MAX_DEBUG_MESSAGES - 1} are shown)`,
      },
    ];
  });

const CallSucceededSchema = z.looseObject({
  type: z.literal('CallContractSucceeded'),
  returns: z.array(ValSchema),
  gasUsed: nonNegInt,
  contracts: z.array(ContractStateSchema).default([]),
  txInputs: z.array(z.string()).default([]),
  txOutputs: z.array(OutputSchema).default([]),
  events: z.array(EventByTxIdSchema.partial({ blockHash: true })).default([]),
  debugMessages: DebugMessagesSchema,
});
export type CallContractSucceeded = z.infer<typeof CallSucceededSchema>;

/** `POST /contracts/call-tx-script`: a dry run of a whole script (CallTxScriptResult, no `type`). */
export const CallTxScriptResultSchema = CallSucceededSchema.omit({ type: true });
export type CallTxScriptResult = z.infer<typeof CallTxScriptResultSchema>;

export const CallContractResultSchema = tagged({
  CallContractSucceeded: CallSucceededSchema,
  CallContractFailed: z.looseObject({
    type: z.literal('CallContractFailed'),
    error: gatewayText(MAX_CALL_ERROR_CHARS),
  }),
});
export type CallContractResult = z.infer<typeof CallContractResultSchema>;

export const MulticallResultSchema = z.looseObject({ results: z.array(CallContractResultSchema) });

/**
 * The server's error body; parsed leniently because it is used for logs and messages (and by the three
 * readers GatewayHttpError.detail names, which only look for words in it).
 */
export const ErrorBodySchema = z.looseObject({
  // The detail is cleaned and capped by sanitizeDetail (errors.ts), its one owner.
  detail: z.string(),
  resource: gatewayText(LABEL_CHARS * 4).optional(),
});

// ---- decoding -------------------------------------------------------------------------------------------

/**
 * Parses `json` with `schema` or throws a SchemaError naming the endpoint and the first mismatch. The
 * caller gets either a fully valid value or an error: never a partial result.
 */
export function decode<S extends z.ZodType>(endpoint: string, schema: S, json: unknown): z.output<S> {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const path = first ? first.path.map(String).join('.') : '';
  throw new SchemaError(endpoint, path, first?.message ?? 'invalid body');
}
