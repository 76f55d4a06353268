/**
 * The TxScript the node's `POST /contracts/unsigned-tx/deploy-contract` puts into the transaction.
 *
 * The node does not take a script for a deployment: it writes Ralph source
 * (ServerUtils.buildDeployContractScriptRawWithParsedState) and compiles it:
 *
 *     TxScript Main {
 *       createContract!{@<sender> -> ALPH: <alph>[, #<tokenId>: <amount>...]}(#<code>, #<imm>, #<mut>)
 *     }
 *
 * with `createContractWithToken!{...}(#code, #imm, #mut, <issueAmount>[, @<issueTo>])` when tokens are
 * issued. Compiled (as found byte for byte in real deploy transactions):
 *
 *     one public method, asset modifier 3 (preapproved assets), argsLength = localsLength = returnLength = 0;
 *     AddressConst <sender>, Dup × (number of initial tokens),
 *     U256Const <alph>, ApproveAlph, (BytesConst <tokenId>, U256Const <amount>, ApproveToken)*,
 *     BytesConst <code>, BytesConst <imm fields>, BytesConst <mut fields>,
 *     then  CreateContract                                                 (no issued token)
 *       or  U256Const <issueAmount>, CreateContractWithToken               (issued to the contract)
 *       or  U256Const <issueAmount>, AddressConst <issueTo>, CreateContractAndTransferToken
 *     Pop (the new contract's id)
 *     and when tokens are issued to an address, the node adds
 *     `transferToken!(@<sender>, @<issueTo>, ALPH, dustUtxoAmount)` so the token output has its ALPH:
 *     AddressConst <sender>, AddressConst <issueTo>, U256Const <dust>, TransferAlph
 *     (real deployments only show sender = issueTo, so the order of the two addresses is the
 *     builtin's documented (from, to) order, not something the data could confirm).
 *
 * Rebuilding these bytes from the request is how a deploy transaction from the gateway is verified.
 */
import {
  ProtocolError,
  addressFromLockupScript,
  bytesToHex,
  hexToBytes,
  lockupScriptFromAddress,
} from '../protocol';
import type { TokenAmount } from './callScript';
import {
  type Instr,
  type Method,
  addressConst,
  bytesConst,
  decodeScript,
  encodeScript,
  simple,
  u256Const,
} from './instructions';

export interface DeployScriptParams {
  /** The deployer's address (base58); its assets are approved for the new contract. */
  readonly sender: string;
  /** The contract code only (hex), without fields. */
  readonly bytecode: string;
  /** Immutable fields as the node's Val list (hex), e.g. from `encodeContractFields`. */
  readonly encodedImmFields: string;
  readonly encodedMutFields: string;
  readonly initialAttoAlphAmount: bigint;
  readonly initialTokens: readonly TokenAmount[];
  readonly issueTokenAmount?: bigint;
  /** Where the issued tokens go; absent: they stay with the contract. Needs `issueTokenAmount`. */
  readonly issueTokenTo?: string;
  /** ALPH (atto) sent along with issued tokens to `issueTokenTo`: the node's dustUtxoAmount, 10^15. */
  readonly issueTokenDustAmount?: bigint;
}

export interface ParsedDeployScript {
  readonly sender: string;
  readonly code: string;
  readonly encodedImmFields: string;
  readonly encodedMutFields: string;
  readonly initialAttoAlphAmount: bigint;
  readonly initialTokens: TokenAmount[];
  readonly issueTokenAmount?: bigint;
  readonly issueTokenTo?: string;
  /** ALPH (atto) sent along with issued tokens to `issueTokenTo`: the node's dustUtxoAmount, 10^15. */
  readonly issueTokenDustAmount?: bigint;
}

/** The node's dustUtxoAmount (0.001 ALPH), what it sends with tokens issued to an address. */
export const DEPLOY_DUST_ATTO = 10n ** 15n;

function lockup(address: string, what: string): string {
  try {
    return bytesToHex(lockupScriptFromAddress(address));
  } catch (e) {
    throw new ProtocolError(`${what}: ${(e as Error).message}`);
  }
}

function u256(v: unknown, what: string): bigint {
  if (typeof v !== 'bigint' || v < 0n || v >= 1n << 256n) {
    throw new ProtocolError(`${what} must be a non-negative bigint below 2^256, got ${String(v)}`);
  }
  return v;
}

function hex(v: string, what: string): string {
  return bytesToHex(hexToBytes(v, what));
}

const DEPLOY_METHOD = {
  isPublic: true,
  usePreapprovedAssets: true,
  useContractAssets: false,
  usePayToContractOnly: false,
  argsLength: 0,
  localsLength: 0,
  returnLength: 0,
} as const;

/** The exact script bytes (hex) the node compiles for a deploy-contract request. */
export function buildDeployScript(opts: DeployScriptParams): string {
  const tokens = opts.initialTokens.map((t, i) => {
    if (typeof t.id !== 'string' || !/^[0-9a-fA-F]{64}$/.test(t.id)) {
      throw new ProtocolError(`initialTokens[${i}].id must be a 32-byte token id in hex`);
    }
    return { id: t.id.toLowerCase(), amount: u256(t.amount, `initialTokens[${i}].amount`) };
  });
  if (opts.issueTokenTo !== undefined && opts.issueTokenAmount === undefined) {
    throw new ProtocolError('issueTokenTo is set but issueTokenAmount is not: there is no token to send');
  }
  const instrs: Instr[] = [
    addressConst(lockup(opts.sender, 'sender')),
    ...tokens.map(() => simple('Dup')),
    u256Const(u256(opts.initialAttoAlphAmount, 'initialAttoAlphAmount')),
    simple('ApproveAlph'),
    ...tokens.flatMap((t) => [bytesConst(t.id), u256Const(t.amount), simple('ApproveToken')]),
    bytesConst(hex(opts.bytecode, 'bytecode')),
    bytesConst(hex(opts.encodedImmFields, 'encodedImmFields')),
    bytesConst(hex(opts.encodedMutFields, 'encodedMutFields')),
  ];
  if (opts.issueTokenAmount === undefined) {
    instrs.push(simple('CreateContract'));
  } else {
    instrs.push(u256Const(u256(opts.issueTokenAmount, 'issueTokenAmount')));
    if (opts.issueTokenTo === undefined) instrs.push(simple('CreateContractWithToken'));
    else
      instrs.push(
        addressConst(lockup(opts.issueTokenTo, 'issueTokenTo')),
        simple('CreateContractAndTransferToken'),
      );
  }
  instrs.push(simple('Pop'));
  if (opts.issueTokenTo !== undefined) {
    instrs.push(
      addressConst(lockup(opts.sender, 'sender')),
      addressConst(lockup(opts.issueTokenTo, 'issueTokenTo')),
      u256Const(u256(opts.issueTokenDustAmount ?? DEPLOY_DUST_ATTO, 'issueTokenDustAmount')),
      simple('TransferAlph'),
    );
  } else if (opts.issueTokenDustAmount !== undefined) {
    throw new ProtocolError('issueTokenDustAmount is set but issueTokenTo is not: no dust is sent');
  }
  const method: Method = { ...DEPLOY_METHOD, instrs };
  return encodeScript([method]);
}

function notDeploy(why: string): never {
  throw new ProtocolError(`not a deploy-contract script: ${why}`);
}

/** Reads a deploy-contract script back into its request; throws a ProtocolError saying what does not fit. */
export function parseDeployScript(scriptHex: string): ParsedDeployScript {
  const methods = decodeScript(scriptHex, 'Deploy script');
  if (methods.length !== 1) notDeploy(`it has ${methods.length} methods, a deploy script has 1`);
  const m = methods[0] as Method;
  for (const [k, v] of Object.entries(DEPLOY_METHOD)) {
    const found = m[k as keyof typeof DEPLOY_METHOD];
    if (found !== v) notDeploy(`its method has ${k} = ${String(found)}, expected ${String(v)}`);
  }
  const instrs = m.instrs;
  let pos = 0;
  const next = (what: string): Instr => {
    const i = instrs[pos];
    if (!i) notDeploy(`it ends after ${pos} instructions, where ${what} was expected`);
    pos++;
    return i;
  };
  const expect = (what: string, ...names: string[]): Instr => {
    const i = next(what);
    if (!names.includes(i.name)) notDeploy(`instruction ${pos - 1} is ${i.name}, expected ${what}`);
    return i;
  };
  const u256Of = (what: string): bigint => {
    const i = next(what);
    if (i.name === 'U256Const') return i.value;
    const short = /^U256Const([0-5])$/.exec(i.name);
    if (short) return BigInt(short[1] as string);
    return notDeploy(`instruction ${pos - 1} is ${i.name}, expected ${what} (a U256 constant)`);
  };
  const bytesOf = (what: string): string => {
    const i = expect(what, 'BytesConst');
    return (i as { value: string }).value;
  };
  const addressOf = (what: string): string => {
    const i = expect(what, 'AddressConst');
    return addressFromLockupScript(hexToBytes((i as { value: string }).value));
  };

  const sender = addressOf('the sender (AddressConst)');
  let dups = 0;
  while (instrs[pos]?.name === 'Dup') {
    dups++;
    pos++;
  }
  const initialAttoAlphAmount = u256Of('the approved ALPH amount');
  expect('ApproveAlph', 'ApproveAlph');
  const initialTokens: TokenAmount[] = [];
  for (let t = 0; t < dups; t++) {
    const id = bytesOf(`token ${t} id (BytesConst)`);
    if (id.length !== 64) notDeploy(`approved token ${t} id has ${id.length / 2} bytes, expected 32`);
    initialTokens.push({ id, amount: u256Of(`token ${t} amount`) });
    expect('ApproveToken', 'ApproveToken');
  }
  const code = bytesOf('the contract code (BytesConst)');
  const encodedImmFields = bytesOf('the immutable fields (BytesConst)');
  const encodedMutFields = bytesOf('the mutable fields (BytesConst)');
  let issueTokenAmount: bigint | undefined;
  let issueTokenTo: string | undefined;
  const create = instrs[pos];
  if (create?.name !== 'CreateContract') {
    issueTokenAmount = u256Of('CreateContract or the issued token amount');
    if (instrs[pos]?.name === 'AddressConst') {
      issueTokenTo = addressOf('the issued tokens recipient');
      expect('CreateContractAndTransferToken', 'CreateContractAndTransferToken');
    } else expect('CreateContractWithToken', 'CreateContractWithToken');
  } else pos++;
  expect('Pop', 'Pop');
  let issueTokenDustAmount: bigint | undefined;
  if (issueTokenTo !== undefined) {
    const from = addressOf('the dust transfer sender (AddressConst)');
    if (from !== sender) notDeploy(`the dust transfer is from ${from}, not from the sender ${sender}`);
    const to = addressOf('the dust transfer recipient (AddressConst)');
    if (to !== issueTokenTo)
      notDeploy(`the dust transfer goes to ${to}, not to the token recipient ${issueTokenTo}`);
    issueTokenDustAmount = u256Of('the dust amount');
    expect('TransferAlph', 'TransferAlph');
  }
  if (pos !== instrs.length) notDeploy(`${instrs.length - pos} instruction(s) follow the final Pop`);
  return {
    sender,
    code,
    encodedImmFields,
    encodedMutFields,
    initialAttoAlphAmount,
    initialTokens,
    ...(issueTokenAmount === undefined ? {} : { issueTokenAmount }),
    ...(issueTokenTo === undefined ? {} : { issueTokenTo, issueTokenDustAmount }),
  };
}
