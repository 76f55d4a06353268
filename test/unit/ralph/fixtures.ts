/**
 * Ralph sources written for these tests in the shape of real projects: an abstract ownable parent in its
 * own file, a token with an interface, global constants and enums, a TxScript, comments and strings that
 * look like declarations, nested blocks, a mapping and interface methods without bodies.
 */
export const OWNABLE = `// Ownership shared by the project's contracts.
// Contract Fake() { }  <- a comment, not a contract
Abstract Contract Ownable(mut owner: Address) {
  event OwnerChanged(previous: Address, next: Address)

  enum OwnableError {
    NotOwner = 100
  }

  @using(updateFields = true)
  pub fn transferOwnership(next: Address) -> () {
    checkCaller!(callerAddress!() == owner, OwnableError.NotOwner)
    emit OwnerChanged(owner, next)
    owner = next
  }

  fn onlyOwner(caller: Address) -> () {
    assert!(caller == owner, OwnableError.NotOwner)
  }
}
`;

export const GLOBALS = `const Fee = 3
const Version = #0102
const Treasury = @1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH

enum Shared {
  Paused = 7
  Closed = 8
}
`;

export const TOKEN = `import "std/fungible_token_interface"

/* A vault that keeps a token and lets holders withdraw.
   Contract NotAContract(x: U256) {}  (inside a block comment) */
Contract Vault(
  symbol: ByteVec,
  name: ByteVec,
  decimals: U256,
  mut supply: U256,
  mut owner: Address
) extends Ownable(owner) implements IFungibleToken {
  mapping[Address, U256] deposits

  event Deposited(who: Address, amount: U256)
  event Withdrawn(who: Address, amount: U256)

  enum ErrorCodes {
    InvalidAmount = 0
    InsufficientDeposit = 1
    InvalidCaller = 7
  }

  const MaxWithdraw = 1000
  const Unused = 7

  pub fn getSymbol() -> ByteVec { return symbol }
  pub fn getName() -> ByteVec { return name }
  pub fn getDecimals() -> U256 { return decimals }
  pub fn getTotalSupply() -> U256 { return supply }

  @using(preapprovedAssets = true, assetsInContract = true, checkExternalCaller = false)
  pub fn deposit(who: Address, amount: U256) -> () {
    assert!(amount > 0, ErrorCodes.InvalidAmount)
    if (deposits.contains!(who)) {
      let current = deposits[who]
      deposits[who] = current + amount
    } else {
      deposits.insert!(who, who, amount)
    }
    emit Debug(\`deposit of \${amount} from \${who}: {not a block}\`)
    emit Deposited(who, amount)
  }

  @using(assetsInContract = true, checkExternalCaller = false)
  pub fn withdraw(amount: U256) -> (U256, Bool) {
    assert!(amount <= MaxWithdraw, ErrorCodes.InvalidAmount)
    let mut i = 0
    while (i < 2) {
      i = i + 1
    }
    assert!(
      deposits[callerAddress!()] >= amount,
      ErrorCodes.InsufficientDeposit
    )
    emit Debug(\`withdraw \${amount}\`)
    emit Withdrawn(callerAddress!(), amount)
    return amount, true
  }

  @using(checkExternalCaller = false)
  pub fn pause() -> () {
    assert!(isPaused(), Shared.Paused)
    panic!(ErrorCodes.InvalidCaller)
  }

  fn isPaused() -> Bool {
    return false
  }
}

Interface IVaultView {
  pub fn depositOf(who: Address) -> U256
  @using(checkExternalCaller = false)
  pub fn total() -> U256
}

TxScript Withdraw(vault: Vault, amount: U256) {
  let (got, ok) = vault.withdraw(amount)
  assert!(ok, 42)
}
`;

/** A line of a fixture (0-based) by its text, so tests do not hard-code line numbers. */
export function lineOf(source: string, needle: string, nth = 0): number {
  const lines = source.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.includes(needle)) {
      if (seen === nth) return i;
      seen++;
    }
  }
  throw new Error(`fixture has no line with ${needle}`);
}

/**
 * A 2,010-line contract in the style of a large real one: 200 rounds of an event, a public function with
 * an assert and a Debug emit, a comment, a constant and a private one-liner. Used by the scanner and
 * lens tests and by `npm run bench` (ralph), which times scanning it and computing its lenses.
 */
export const BIG_ROUNDS = 200;
export function bigRalphSource(contractHeader = 'Contract Big(mut n: U256)'): string {
  const body = Array.from(
    { length: BIG_ROUNDS },
    (_, i) =>
      `  event E${i}(x: U256)\n  @using(checkExternalCaller = false)\n  pub fn f${i}(a: U256) -> U256 {\n    assert!(a > ${i}, ErrorCodes.E${i % 5})\n    emit Debug(\`f${i} \${a}\`)\n    return a\n  }\n  // ${i}\n  const C${i} = ${i}\n  fn g${i}() -> () { let x = 1 }`,
  ).join('\n');
  return `${contractHeader} {\n  enum ErrorCodes {\n    E0 = 0\n    E1 = 1\n    E2 = 2\n    E3 = 3\n    E4 = 4\n  }\n${body}\n}\n`;
}

/** The artifact of bigRalphSource's contract (JSON text of a .ral.json). */
export function bigRalphArtifactJson(): string {
  const n = BIG_ROUNDS;
  return JSON.stringify({
    version: 'v3.0.0',
    name: 'Big',
    bytecode: '00',
    codeHash: 'ab'.repeat(32),
    fieldsSig: { names: ['n'], types: ['U256'], isMutable: [true] },
    eventsSig: Array.from({ length: n }, (_, i) => ({
      name: `E${i}`,
      fieldNames: ['x'],
      fieldTypes: ['U256'],
    })),
    functions: Array.from({ length: n }, (_, i) => [
      {
        name: `f${i}`,
        paramNames: ['a'],
        paramTypes: ['U256'],
        paramIsMutable: [false],
        returnTypes: ['U256'],
      },
      { name: `g${i}`, paramNames: [], paramTypes: [], paramIsMutable: [], returnTypes: [] },
    ]).flat(),
    constants: [],
    enums: [],
  });
}
