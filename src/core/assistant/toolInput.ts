/**
 * What the Alephium language-model tools accept, checked by the tools themselves: the workbench does not
 * validate an invocation's input against the `inputSchema` declared in package.json, and a model may send
 * anything. Each check names the field and what it needs, before any request is sent.
 */
import { addressType, isValidAddress } from '../protocol/address';
import { isHex, isTxId } from '../protocol/hex';
import { plainText } from '../text/inert';

import { TOOL_NAMES } from './toolNames';

export { TOOL_NAMES, type ToolName } from './toolNames';

/** Bad input for a tool: the message is for the model (and the person reading the chat). */
export class ToolInputError extends Error {
  constructor(tool: string, problem: string) {
    super(`${tool}: ${problem}`);
    this.name = 'ToolInputError';
  }
}

/** How many recent events a call may ask for: the Show Latest Events command's range. */
export const MAX_RECENT_EVENTS = 1000;
export const DEFAULT_RECENT_EVENTS = 10;

/**
 * Hex characters of an unsigned transaction: 64 KiB of bytes. A contract's code is at most 32 KB, so
 * every real transaction fits, and a model cannot make the extension decode megabytes.
 */
export const MAX_UNSIGNED_TX_HEX_CHARS = 131_072;

/** A contract named by the model, as it gave it (an address, or a watched contract's or deployment's name). */
export interface ContractStateInput {
  readonly contract: string;
}

export interface RecentEventsInput {
  readonly contract: string;
  readonly count: number;
}

export interface DecodeUnsignedTxInput {
  /** Lower-case hex, without 0x or whitespace. */
  readonly unsignedTx: string;
}

export interface ExplainTransactionInput {
  /** Lower-case, 64 hex digits. */
  readonly txId: string;
}

/** A value from the model, quoted in an error: inert and short. */
function quoted(value: unknown): string {
  return typeof value === 'string' ? `"${plainText(value, 80)}"` : typeof value;
}

function record(tool: string, input: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new ToolInputError(tool, `the input must be an object with ${allowed.join(', ')}.`);
  const fields = input as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => !allowed.includes(k));
  if (unknown.length > 0)
    throw new ToolInputError(
      tool,
      `unknown input ${unknown.slice(0, 5).map(quoted).join(', ')}; it takes ${allowed.join(', ')}.`,
    );
  return fields;
}

function contractText(tool: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new ToolInputError(
      tool,
      'contract is required: the contract address (base58, P2C) or the name of a watched contract or deployment.',
    );
  const text = value.trim();
  if (text.length > 200)
    throw new ToolInputError(
      tool,
      `contract is ${text.length} characters long; an address or a name is shorter.`,
    );
  if (isValidAddress(text) && addressType(text) !== 'P2C')
    throw new ToolInputError(
      tool,
      `contract ${quoted(text)} is a ${addressType(text)} address; a contract address (P2C) is needed.`,
    );
  return text;
}

export function parseContractStateInput(input: unknown): ContractStateInput {
  const tool = TOOL_NAMES.contractState;
  const fields = record(tool, input, ['contract']);
  return { contract: contractText(tool, fields.contract) };
}

export function parseRecentEventsInput(input: unknown): RecentEventsInput {
  const tool = TOOL_NAMES.recentEvents;
  const fields = record(tool, input, ['contract', 'count']);
  const contract = contractText(tool, fields.contract);
  const count = fields.count ?? DEFAULT_RECENT_EVENTS;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_RECENT_EVENTS)
    throw new ToolInputError(
      tool,
      `count must be a whole number from 1 to ${MAX_RECENT_EVENTS}, got ${typeof count === 'number' ? String(count) : quoted(count)}.`,
    );
  return { contract, count };
}

export function parseDecodeUnsignedTxInput(input: unknown): DecodeUnsignedTxInput {
  const tool = TOOL_NAMES.decodeUnsignedTx;
  const fields = record(tool, input, ['unsignedTx']);
  const value = fields.unsignedTx;
  if (typeof value !== 'string' || value.trim() === '')
    throw new ToolInputError(tool, 'unsignedTx is required: the unsigned transaction as hex.');
  // A cut before any pass over the text: the work is bounded by the cap, not by what was sent.
  if (value.length > MAX_UNSIGNED_TX_HEX_CHARS + 1024)
    throw new ToolInputError(
      tool,
      `unsignedTx is ${value.length} characters; a transaction is at most ${MAX_UNSIGNED_TX_HEX_CHARS / 2} bytes.`,
    );
  let hex = value.trim().toLowerCase();
  if (hex.startsWith('0x')) hex = hex.slice(2);
  hex = hex.split(/\s/).join('');
  if (hex.length > MAX_UNSIGNED_TX_HEX_CHARS)
    throw new ToolInputError(
      tool,
      `unsignedTx is ${hex.length / 2} bytes; a transaction is at most ${MAX_UNSIGNED_TX_HEX_CHARS / 2}.`,
    );
  if (!isHex(hex))
    throw new ToolInputError(tool, 'unsignedTx must be hex digits only (an even number of them).');
  return { unsignedTx: hex };
}

export function parseExplainTransactionInput(input: unknown): ExplainTransactionInput {
  const tool = TOOL_NAMES.explainTransaction;
  const fields = record(tool, input, ['txId']);
  const value = fields.txId;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!isTxId(text))
    throw new ToolInputError(
      tool,
      `txId must be a transaction id of 64 hex digits, got ${value === undefined ? 'nothing' : quoted(value)}.`,
    );
  return { txId: text };
}

/** A contract the tools may read: watched, or listed in a deployments file of the workspace. */
export interface KnownContract {
  readonly name: string;
  readonly address: string;
  readonly source: 'watched' | 'deployment';
}

/**
 * The address a contract text names: the address itself, or the one known contract of that name (a
 * watched contract's name first, then a deployment's). Local, no request.
 */
export function resolveContractText(tool: string, text: string, known: readonly KnownContract[]): string {
  if (isValidAddress(text)) return text;
  const addressesFrom = (source: KnownContract['source']) => [
    ...new Set(known.filter((k) => k.source === source && k.name === text).map((k) => k.address)),
  ];
  const watched = addressesFrom('watched');
  const addresses = watched.length > 0 ? watched : addressesFrom('deployment');
  if (addresses.length === 1) return addresses[0]!;
  const names = [...new Set(known.map((k) => k.name))].slice(0, 20).map(quoted);
  if (addresses.length > 1)
    throw new ToolInputError(
      tool,
      `${quoted(text)} names ${addresses.length} contracts; give the address instead.`,
    );
  throw new ToolInputError(
    tool,
    `contract ${quoted(text)} is neither a contract address nor the name of a watched contract or deployment` +
      (names.length > 0
        ? ` (known: ${names.join(', ')}).`
        : ' (none are watched or deployed in this workspace).'),
  );
}
