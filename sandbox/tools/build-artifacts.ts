/**
 * Writes sandbox/project/artifacts/*.ral.json in the Ralph compiler's artifact shape, and
 * sandbox/project/artifacts/.project.json in @alephium/cli's shape.
 *
 * Why a generator rather than hand-written hex: the extension may decode bytecode with the SDK's contract
 * codec (e.g. to read each method's isPublic and asset modifiers, which artifacts omit), so the bytecode must
 * be a genuine encoding whose methods match the declared signatures. Hand-assembled until the project can
 * compile Ralph: the instruction bodies are what the compiler emits for the sources' statements as far as
 * the VM can tell (an event of n fields is `Log{n+1}`: the event index, then the fields), and the sandbox
 * runs them on the project's VM, so each method must mean what its `.ral` says
 * (`sandbox/vm/artifactsOnVm.test.ts` checks every one).
 *
 * As the compiler does, an artifact's `bytecode` is the release code, without the instructions of
 * `emit Debug` (marked {@link debugOnly} below); the debug code keeps them and is recorded as the CLI records
 * it, a `bytecodeDebugPatch` from the release code's hex text to the debug code's, and its `codeHashDebug`.
 * The CLI and the SDK deploy the debug code on a devnet (`buildByteCodeToDeploy(fields, isDevnet)`).
 *
 * Run: npx tsx sandbox/tools/build-artifacts.ts
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_NODE_COMPILER_OPTIONS, codec } from '@alephium/web3';
import { blake2b } from '@noble/hashes/blake2.js';

type Instr = codec.Instr;
/** Instructions only the debug code has (an `emit Debug` and the loads of its arguments). */
interface DebugOnly {
  debugOnly: Instr[];
}
type Step = Instr | DebugOnly;
const debugOnly = (...instrs: Instr[]): DebugOnly => ({ debugOnly: instrs });
const I = codec;
const utf8 = (s: string) => new TextEncoder().encode(s);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

interface FnSpec {
  name: string;
  paramNames: string[];
  paramTypes: string[];
  paramIsMutable: boolean[];
  returnTypes: string[];
  isPublic: boolean;
  usePreapprovedAssets: boolean;
  useContractAssets: boolean;
  localsLength: number;
  instrs: Step[];
}

function fn(
  name: string,
  params: [string, string][],
  returnTypes: string[],
  instrs: Step[],
  opts: { useContractAssets?: boolean; extraLocals?: number } = {},
): FnSpec {
  return {
    name,
    paramNames: params.map((p) => p[0]),
    paramTypes: params.map((p) => p[1]),
    paramIsMutable: params.map(() => false),
    returnTypes,
    isPublic: true,
    usePreapprovedAssets: false,
    useContractAssets: opts.useContractAssets ?? false,
    localsLength: params.length + (opts.extraLocals ?? 0),
    instrs,
  };
}

/** The method's instructions in the release code (debug = false) or in the debug code. */
function instrsOf(steps: Step[], debug: boolean): Instr[] {
  return steps.flatMap((s) => ('debugOnly' in s ? (debug ? s.debugOnly : []) : [s]));
}

function bytecodeOf(fieldLength: number, fns: FnSpec[], debug: boolean): string {
  const methods = fns.map((f) => ({
    isPublic: f.isPublic,
    usePreapprovedAssets: f.usePreapprovedAssets,
    useContractAssets: f.useContractAssets,
    usePayToContractOnly: false,
    argsLength: f.paramTypes.length,
    localsLength: f.localsLength,
    returnLength: f.returnTypes.length,
    instrs: instrsOf(f.instrs, debug),
  }));
  return hex(I.contract.contractCodec.encodeContract({ fieldLength, methods }));
}

function artifact(
  name: string,
  fields: { names: string[]; types: string[]; isMutable: boolean[] },
  events: { name: string; fieldNames: string[]; fieldTypes: string[] }[],
  fns: FnSpec[],
  constants: { name: string; value: { type: string; value: string } }[],
  enums: { name: string; fields: { name: string; value: { type: string; value: string } }[] }[],
  stdInterfaceId?: string,
) {
  const bytecode = bytecodeOf(fields.names.length, fns, false);
  const codeHash = codeHashOf(bytecode);
  const debugBytecode = bytecodeOf(fields.names.length, fns, true);
  const debug = {
    bytecodeDebugPatch: debugPatch(bytecode, debugBytecode),
    codeHashDebug: codeHashOf(debugBytecode),
  };
  const json = {
    version: 'v4.6.0',
    name,
    bytecode,
    codeHash,
    fieldsSig: fields,
    eventsSig: events,
    functions: fns.map((f) => ({
      name: f.name,
      paramNames: f.paramNames,
      paramTypes: f.paramTypes,
      paramIsMutable: f.paramIsMutable,
      returnTypes: f.returnTypes,
    })),
    constants,
    enums,
    ...(stdInterfaceId ? { stdInterfaceId } : {}),
  };
  return { json, debug };
}

const codeHashOf = (bytecode: string) => hex(blake2b(Buffer.from(bytecode, 'hex'), { dkLen: 32 }));

/**
 * The compiler's `bytecodeDebugPatch` from `release` to `debug` (hex text): `=n` copies n characters, `-n`
 * skips n, `+hex` inserts, from a longest common subsequence of the two texts (a few hundred characters).
 */
function debugPatch(release: string, debug: string): string {
  if (release === debug) return '';
  const n = release.length;
  const m = debug.length;
  // lcs[i * (m + 1) + j]: the longest common subsequence of release[i..] and debug[j..].
  const lcs = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * (m + 1) + j] =
        release[i] === debug[j]
          ? (lcs[(i + 1) * (m + 1) + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * (m + 1) + j] as number, lcs[i * (m + 1) + j + 1] as number);
  const ops: { op: '=' | '-' | '+'; text: string }[] = [];
  const push = (op: '=' | '-' | '+', c: string) => {
    const last = ops[ops.length - 1];
    if (last?.op === op) last.text += c;
    else ops.push({ op, text: c });
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && release[i] === debug[j]) {
      push('=', release[i++] as string);
      j++;
    } else if (
      j < m &&
      (i === n || (lcs[i * (m + 1) + j + 1] as number) >= (lcs[(i + 1) * (m + 1) + j] as number))
    ) {
      push('+', debug[j++] as string);
    } else {
      push('-', release[i++] as string);
    }
  }
  return ops.map((o) => (o.op === '+' ? `+${o.text}` : `${o.op}${o.text.length}`)).join('');
}

const u256 = (v: number) => ({ type: 'U256', value: String(v) });

// Counter(owner: Address, mut count: U256, mut paused: Bool): immutable fields first, then mutable, as the
// VM stores them. `assert!(!paused, ErrorCodes.Paused)` opens increment and incrementBy.
const assertNotPaused: Instr[] = [I.LoadMutField(1), I.BoolNot, I.U256Const2, I.AssertWithErrorCode];
const onlyOwner: Instr[] = [
  I.CallerAddress,
  I.LoadImmField(0),
  I.AddressEq,
  I.U256Const0,
  I.AssertWithErrorCode,
];
const counter = artifact(
  'Counter',
  {
    names: ['owner', 'count', 'paused'],
    types: ['Address', 'U256', 'Bool'],
    isMutable: [false, true, true],
  },
  [
    { name: 'Incremented', fieldNames: ['by', 'newCount'], fieldTypes: ['Address', 'U256'] },
    { name: 'Reset', fieldNames: ['by', 'previous'], fieldTypes: ['Address', 'U256'] },
  ],
  [
    fn('get', [], ['U256'], [I.LoadMutField(0), I.Return]),
    fn(
      'increment',
      [],
      [],
      [
        ...assertNotPaused,
        I.LoadMutField(0),
        I.U256Const1,
        I.U256Add,
        I.StoreMutField(0),
        debugOnly(I.LoadMutField(0), I.DEBUG([utf8('count is now '), utf8('')])),
        I.I256Const0,
        I.CallerAddress,
        I.LoadMutField(0),
        I.Log3,
        I.Return,
      ],
    ),
    fn(
      'incrementBy',
      [['step', 'U256']],
      [],
      [
        ...assertNotPaused,
        I.LoadLocal(0),
        I.U256Const(100n),
        I.U256Le,
        I.U256Const1,
        I.AssertWithErrorCode,
        I.LoadMutField(0),
        I.LoadLocal(0),
        I.U256Add,
        I.StoreMutField(0),
        I.I256Const0,
        I.CallerAddress,
        I.LoadMutField(0),
        I.Log3,
        I.Return,
      ],
    ),
    fn(
      'reset',
      [],
      [],
      [
        ...onlyOwner,
        I.I256Const1,
        I.CallerAddress,
        I.LoadMutField(0),
        I.Log3,
        I.U256Const0,
        I.StoreMutField(0),
        I.Return,
      ],
    ),
    // pause and unpause come after the methods scripts already call, so indexes 0 to 3 stay.
    fn('pause', [], [], [...onlyOwner, I.ConstTrue, I.StoreMutField(1), I.Return]),
    fn('unpause', [], [], [...onlyOwner, I.ConstFalse, I.StoreMutField(1), I.Return]),
  ],
  [{ name: 'MaxStep', value: u256(100) }],
  [
    {
      name: 'ErrorCodes',
      fields: [
        { name: 'NotOwner', value: u256(0) },
        { name: 'StepTooLarge', value: u256(1) },
        { name: 'Paused', value: u256(2) },
      ],
    },
  ],
);

// TokenFaucet implements IFungibleToken ("0001"): the compiler appends the hidden immutable field
// __stdInterfaceId, which is why it is in fieldsSig and in the state's immFields.
const faucet = artifact(
  'TokenFaucet',
  {
    names: ['symbol', 'name', 'decimals', 'supply', 'balance', '__stdInterfaceId'],
    types: ['ByteVec', 'ByteVec', 'U256', 'U256', 'U256', 'ByteVec'],
    isMutable: [false, false, false, false, true, false],
  },
  [{ name: 'Withdraw', fieldNames: ['to', 'amount'], fieldTypes: ['Address', 'U256'] }],
  [
    fn('getSymbol', [], ['ByteVec'], [I.LoadImmField(0), I.Return]),
    fn('getName', [], ['ByteVec'], [I.LoadImmField(1), I.Return]),
    fn('getDecimals', [], ['U256'], [I.LoadImmField(2), I.Return]),
    fn('getTotalSupply', [], ['U256'], [I.LoadImmField(3), I.Return]),
    fn('balance', [], ['U256'], [I.LoadMutField(0), I.Return]),
    fn(
      'withdraw',
      [['amount', 'U256']],
      [],
      [
        debugOnly(I.LoadMutField(0), I.DEBUG([utf8('The current balance is '), utf8('')])),
        I.LoadLocal(0),
        I.U256Const2,
        I.U256Le,
        I.U256Const0,
        I.AssertWithErrorCode,
        I.CallerAddress,
        I.SelfContractId, // selfTokenId!() is the contract id
        I.LoadLocal(0),
        I.TransferTokenFromSelf,
        I.LoadMutField(0),
        I.LoadLocal(0),
        I.U256Sub,
        I.StoreMutField(0),
        I.I256Const0,
        I.CallerAddress,
        I.LoadLocal(0),
        I.Log3,
        I.Return,
      ],
      { useContractAssets: true },
    ),
  ],
  [{ name: 'MaxWithdraw', value: u256(2) }],
  [{ name: 'ErrorCodes', fields: [{ name: 'InvalidWithdrawAmount', value: u256(0) }] }],
  '0001',
);

/**
 * A TxScript artifact: `bytecodeTemplate` is the script's bytecode with `{n}` where field n's constant
 * instruction goes (what @alephium/web3's buildScriptByteCode fills in). The holes are laid out by encoding
 * the script with a unique 32-byte marker constant per field, then cutting each marker's BytesConst out, so
 * the method header (instruction count included) is the compiler's.
 */
function scriptArtifact(
  name: string,
  fields: { names: string[]; types: string[] },
  body: (hole: (i: number) => Instr) => Instr[],
) {
  const marker = (i: number) => new Uint8Array(32).fill(0xa0 + i);
  const instrs = body((i) => I.BytesConst(marker(i)));
  // A TxScript's main is public and uses preapproved assets unless it says otherwise.
  let template = hex(
    I.script.scriptCodec.encode({
      methods: [
        {
          isPublic: true,
          usePreapprovedAssets: true,
          useContractAssets: false,
          usePayToContractOnly: false,
          argsLength: 0,
          localsLength: 0,
          returnLength: 0,
          instrs,
        },
      ],
    }),
  );
  fields.names.forEach((_, i) => {
    template = template.split(hex(I.instrCodec.encode(I.BytesConst(marker(i))))).join(`{${i}}`);
  });
  return {
    version: 'v4.6.0',
    name,
    bytecodeTemplate: template,
    fieldsSig: { ...fields, isMutable: fields.names.map(() => false) },
    functions: [{ name: 'main', paramNames: [], paramTypes: [], paramIsMutable: [], returnTypes: [] }],
  };
}

// Counter's method indexes in its artifact: get 0, increment 1, incrementBy 2, reset 3, pause 4, unpause 5.
const increment = scriptArtifact('Increment', { names: ['counter'], types: ['Counter'] }, (hole) => [
  I.U256Const0, // arguments
  I.U256Const0, // return values
  hole(0),
  I.CallExternal(1),
]);
const incrementBy = scriptArtifact(
  'IncrementBy',
  { names: ['counter', 'step'], types: ['Counter', 'U256'] },
  (hole) => [hole(1), I.U256Const1, I.U256Const0, hole(0), I.CallExternal(2)],
);

const projectDir = join(import.meta.dirname, '..', 'project');
const dir = join(projectDir, 'artifacts');
/** SHA-256 of a source file's text: the CLI's `sourceCodeHash`. */
const sourceHash = (file: string) =>
  createHash('sha256')
    .update(readFileSync(join(projectDir, 'contracts', file)))
    .digest('hex');
const infos: Record<string, unknown> = {};
for (const [a, sourceFile] of [
  [counter, 'counter.ral'],
  [faucet, 'token_faucet.ral'],
] as const) {
  writeFileSync(join(dir, `${a.json.name}.ral.json`), JSON.stringify(a.json, null, 2) + '\n');
  infos[a.json.name] = { sourceFile, sourceCodeHash: sourceHash(sourceFile), ...a.debug };
  console.log(`wrote ${a.json.name}.ral.json (codeHash ${a.json.codeHash}, debug ${a.debug.codeHashDebug})`);
}
for (const a of [increment, incrementBy]) {
  writeFileSync(join(dir, `${a.name}.ral.json`), JSON.stringify(a, null, 2) + '\n');
  // Scripts have no debug build of their own here; the CLI writes an empty codeHashDebug for them.
  infos[a.name] = {
    sourceFile: 'scripts.ral',
    sourceCodeHash: sourceHash('scripts.ral'),
    bytecodeDebugPatch: '',
    codeHashDebug: '',
  };
  console.log(`wrote ${a.name}.ral.json (template ${a.bytecodeTemplate})`);
}
// @alephium/cli's ProjectArtifact.saveToFile: infos sorted by name, the node's compiler options in full.
const projectArtifact = {
  fullNodeVersion: 'v4.6.0',
  compilerOptionsUsed: { ...DEFAULT_NODE_COMPILER_OPTIONS, ignoreUnusedConstantsWarnings: true },
  infos: Object.fromEntries(Object.entries(infos).sort(([a], [b]) => (a < b ? -1 : 1))),
};
writeFileSync(join(dir, '.project.json'), JSON.stringify(projectArtifact, null, 2));
console.log('wrote .project.json');
