/**
 * Writes sandbox/project/artifacts/*.ral.json in the Ralph compiler's artifact shape.
 *
 * Why a generator rather than hand-written hex: the extension may decode bytecode with the SDK's contract
 * codec (e.g. to read each method's isPublic and asset modifiers, which artifacts omit), so the bytecode must
 * be a genuine encoding whose methods match the declared signatures. The instruction bodies approximate what
 * the compiler emits; the sandbox implements the methods itself and never executes this bytecode.
 *
 * Run: npx tsx sandbox/tools/build-artifacts.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codec } from '@alephium/web3';
import { blake2b } from '@noble/hashes/blake2.js';

type Instr = codec.Instr;
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
  instrs: Instr[];
}

function fn(
  name: string,
  params: [string, string][],
  returnTypes: string[],
  instrs: Instr[],
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

function bytecodeOf(fieldLength: number, fns: FnSpec[]): string {
  const methods = fns.map((f) => ({
    isPublic: f.isPublic,
    usePreapprovedAssets: f.usePreapprovedAssets,
    useContractAssets: f.useContractAssets,
    usePayToContractOnly: false,
    argsLength: f.paramTypes.length,
    localsLength: f.localsLength,
    returnLength: f.returnTypes.length,
    instrs: f.instrs,
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
  const bytecode = bytecodeOf(fields.names.length, fns);
  const codeHash = hex(blake2b(Buffer.from(bytecode, 'hex'), { dkLen: 32 }));
  return {
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
        I.LoadMutField(0),
        I.DEBUG([utf8('count is now '), utf8('')]),
        I.I256Const0,
        I.CallerAddress,
        I.LoadMutField(0),
        I.Log2,
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
        I.Log2,
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
        I.Log2,
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
        I.LoadMutField(0),
        I.DEBUG([utf8('The current balance is '), utf8('')]),
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
        I.Log2,
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

const dir = join(import.meta.dirname, '..', 'project', 'artifacts');
for (const a of [counter, faucet]) {
  writeFileSync(join(dir, `${a.name}.ral.json`), JSON.stringify(a, null, 2) + '\n');
  console.log(`wrote ${a.name}.ral.json (codeHash ${a.codeHash})`);
}
for (const a of [increment, incrementBy]) {
  writeFileSync(join(dir, `${a.name}.ral.json`), JSON.stringify(a, null, 2) + '\n');
  console.log(`wrote ${a.name}.ral.json (template ${a.bytecodeTemplate})`);
}
