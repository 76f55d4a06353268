import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scanRalph } from '../../../src/core/ralph/scanner';
import { RalphSourceMap } from '../../../src/core/ralph/sourceMap';
import { readProjectConfig } from '../../../src/core/artifacts/projectConfig';
import { GLOBALS, OWNABLE, TOKEN, bigRalphSource, lineOf } from './fixtures';

const names = (scan: ReturnType<typeof scanRalph>, kind: string) =>
  scan.decls.filter((d) => d.kind === kind).map((d) => `${d.container ?? ''}:${d.name}`);

describe('Ralph declaration scanner', () => {
  it('finds containers with their kind and parents, and ignores ones in comments', () => {
    const scan = scanRalph(TOKEN);
    const contracts = scan.decls.filter((d) => d.kind === 'contract');
    assert.deepEqual(
      contracts.map((c) => [c.name, c.containerKind, c.parents]),
      [
        ['Vault', 'Contract', ['Ownable', 'IFungibleToken']],
        ['IVaultView', 'Interface', []],
        ['Withdraw', 'TxScript', []],
      ],
    );
    const vault = contracts[0]!;
    assert.equal(vault.span.start.line, lineOf(TOKEN, 'Contract Vault('));
    assert.equal(vault.span.start.character, 'Contract '.length);
    assert.equal(vault.span.end.character, 'Contract Vault'.length);
    const ownable = scanRalph(OWNABLE).decls.filter((d) => d.kind === 'contract');
    assert.deepEqual(
      ownable.map((c) => [c.name, c.containerKind]),
      [['Ownable', 'Abstract Contract']],
    );
  });

  it('finds fields, a mapping, events, enums, their fields and constants with their containers', () => {
    const scan = scanRalph(TOKEN);
    assert.deepEqual(names(scan, 'field'), [
      'Vault:symbol',
      'Vault:name',
      'Vault:decimals',
      'Vault:supply',
      'Vault:owner',
      'Withdraw:vault',
      'Withdraw:amount',
    ]);
    assert.deepEqual(names(scan, 'mapping'), ['Vault:deposits']);
    assert.deepEqual(names(scan, 'event'), ['Vault:Deposited', 'Vault:Withdrawn']);
    assert.deepEqual(names(scan, 'enum'), ['Vault:ErrorCodes']);
    const fields = scan.decls.filter((d) => d.kind === 'enumField');
    assert.deepEqual(
      fields.map((f) => [f.container, f.name, f.value, f.owner]),
      [
        ['ErrorCodes', 'InvalidAmount', '0', 'Vault'],
        ['ErrorCodes', 'InsufficientDeposit', '1', 'Vault'],
        ['ErrorCodes', 'InvalidCaller', '7', 'Vault'],
      ],
    );
    assert.deepEqual(
      scan.decls.filter((d) => d.kind === 'constant').map((c) => [c.name, c.value]),
      [
        ['MaxWithdraw', '1000'],
        ['Unused', '7'],
      ],
    );
    const withdrawn = scan.decls.find((d) => d.name === 'Withdrawn')!;
    assert.equal(withdrawn.span.start.line, lineOf(TOKEN, 'event Withdrawn'));
  });

  it('finds global constants and enums with literal values of every kind', () => {
    const scan = scanRalph(GLOBALS);
    assert.deepEqual(
      scan.decls.map((d) => [d.kind, d.container ?? null, d.name, d.value ?? null]),
      [
        ['constant', null, 'Fee', '3'],
        ['constant', null, 'Version', '#0102'],
        ['constant', null, 'Treasury', '@1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH'],
        ['enum', null, 'Shared', null],
        ['enumField', 'Shared', 'Paused', '7'],
        ['enumField', 'Shared', 'Closed', '8'],
      ],
    );
  });

  it('finds functions with visibility, parameters and bodies, including one-line and body-less ones', () => {
    const scan = scanRalph(TOKEN);
    const fns = scan.decls.filter((d) => d.kind === 'function');
    assert.deepEqual(
      fns.map((f) => [f.container, f.name, f.isPublic, f.hasBody, (f.params ?? []).join(',')]),
      [
        ['Vault', 'getSymbol', true, true, ''],
        ['Vault', 'getName', true, true, ''],
        ['Vault', 'getDecimals', true, true, ''],
        ['Vault', 'getTotalSupply', true, true, ''],
        ['Vault', 'deposit', true, true, 'who,amount'],
        ['Vault', 'withdraw', true, true, 'amount'],
        ['Vault', 'pause', true, true, ''],
        ['Vault', 'isPaused', false, true, ''],
        ['IVaultView', 'depositOf', true, false, 'who'],
        ['IVaultView', 'total', true, false, ''],
      ],
    );
    // Braces inside a Debug template (`{not a block}`) and nested while/if blocks do not end the contract.
    assert.equal(fns.find((f) => f.name === 'isPaused')!.container, 'Vault');
  });

  it('finds assert!, checkCaller! and panic! with their error argument, function and whole span', () => {
    const scan = scanRalph(TOKEN);
    assert.deepEqual(
      scan.checks.map((c) => [c.kind, c.container, c.functionName ?? null, c.errorArg, c.span.start.line]),
      [
        ['assert', 'Vault', 'deposit', 'ErrorCodes.InvalidAmount', lineOf(TOKEN, 'assert!(amount > 0')],
        [
          'assert',
          'Vault',
          'withdraw',
          'ErrorCodes.InvalidAmount',
          lineOf(TOKEN, 'assert!(amount <= MaxWithdraw'),
        ],
        ['assert', 'Vault', 'withdraw', 'ErrorCodes.InsufficientDeposit', lineOf(TOKEN, 'assert!(', 2)],
        ['assert', 'Vault', 'pause', 'Shared.Paused', lineOf(TOKEN, 'Shared.Paused')],
        ['panic', 'Vault', 'pause', 'ErrorCodes.InvalidCaller', lineOf(TOKEN, 'panic!')],
        ['assert', 'Withdraw', null, '42', lineOf(TOKEN, 'assert!(ok, 42)')],
      ],
    );
    // A multi-line assert spans to its closing parenthesis.
    const multi = scan.checks[2]!;
    assert.equal(multi.span.end.line, lineOf(TOKEN, 'ErrorCodes.InsufficientDeposit\n'.trim()) + 1);
    const own = scanRalph(OWNABLE).checks;
    assert.deepEqual(
      own.map((c) => [c.kind, c.functionName, c.errorArg]),
      [
        ['checkCaller', 'transferOwnership', 'OwnableError.NotOwner'],
        ['assert', 'onlyOwner', 'OwnableError.NotOwner'],
      ],
    );
  });

  it('finds emits with their template arguments kept whole', () => {
    const scan = scanRalph(TOKEN);
    assert.deepEqual(
      scan.emits.map((e) => [e.event, e.functionName, e.args]),
      [
        ['Debug', 'deposit', ['`deposit of ${amount} from ${who}: {not a block}`']],
        ['Deposited', 'deposit', ['who', 'amount']],
        ['Debug', 'withdraw', ['`withdraw ${amount}`']],
        ['Withdrawn', 'withdraw', ['callerAddress!()', 'amount']],
      ],
    );
  });

  it('never throws on broken or half-typed files and still maps what comes before the break', () => {
    const broken = [
      'Contract Half(x: U256) {\n  event A(x: U256)\n  pub fn f(',
      'Contract',
      '`unterminated ${ template',
      '/* unterminated comment',
      '}}}} {{{{ Contract X { fn } enum { = } const = ',
      'Contract C() { enum E { A = } pub fn g() -> ( { assert!( } ',
      '',
    ];
    for (const text of broken) assert.doesNotThrow(() => scanRalph(text), text);
    const half = scanRalph(broken[0]!);
    assert.deepEqual(
      half.decls.map((d) => `${d.kind}:${d.name}`),
      // The function being typed is already found: its name is complete.
      ['field:x', 'contract:Half', 'event:A', 'function:f'],
    );
  });

  it('scans deeply nested containers and blocks in linear time, with the right container for each', () => {
    // The old scanner walked the whole brace stack for every declaration: 391 KB of nested
    // `Contract A() {` took 3.9 s, and these 2 MB would take minutes (mocha's timeout fails the test).
    const depth = 120_000;
    const nested = 'Contract A() {\n'.repeat(depth) + '  event E(x: U256)\n' + '}\n'.repeat(depth);
    const scan = scanRalph(nested);
    assert.equal(scan.decls.filter((d) => d.kind === 'contract').length, depth);
    const event = scan.decls.find((d) => d.kind === 'event')!;
    assert.equal(event.container, 'A');
    assert.equal(event.span.start.line, depth);
    // Blocks inside a function: every check still names its contract and function.
    const blocks = 20_000;
    const body = `Contract B() {\n  fn f() -> () {\n${'{'.repeat(blocks)}\n${'assert!(x, 7)\n'.repeat(blocks)}${'}'.repeat(blocks)}\n  }\n  event After(x: U256)\n}\n`;
    const inBlocks = scanRalph(body);
    assert.equal(inBlocks.checks.length, blocks);
    assert.ok(
      inBlocks.checks.every((c) => c.container === 'B' && c.functionName === 'f' && c.errorArg === '7'),
    );
    const after = inBlocks.decls.find((d) => d.name === 'After')!;
    assert.equal(after.container, 'B');
  });

  it('never overflows the call stack on deeply nested template interpolations', () => {
    const nested = `Contract T() {\n  fn f() -> () { emit Debug(${'`${'.repeat(200_000)}) }\n}\n`;
    const scan = assert.doesNotThrow(() => scanRalph(nested)) ?? scanRalph(nested);
    assert.equal(scan.decls.find((d) => d.kind === 'contract')?.name, 'T');
    // A closed nesting is one string token: what follows it is scanned as code again.
    const closed = `Contract U() {\n  fn g() -> () {\n    emit Debug(\`a \${\`b \${ {x} } c\`} d\`)\n    assert!(y, 3)\n  }\n}\n`;
    const u = scanRalph(closed);
    assert.deepEqual(
      u.emits.map((e) => e.args),
      [['`a ${`b ${ {x} } c`} d`']],
    );
    assert.deepEqual(
      u.checks.map((c) => [c.container, c.functionName, c.errorArg]),
      [['U', 'g', '3']],
    );
  });

  it('uses UTF-16 columns after non-ASCII text, as the editor counts them', () => {
    const text = '// café ☕ 𝔘\nContract Ünïcode() {\n  /* ✓ */ event E(x: U256)\n}\n';
    const scan = scanRalph(text);
    const e = scan.decls.find((d) => d.name === 'E')!;
    assert.deepEqual(e.span.start, { line: 2, character: '  /* ✓ */ event '.length });
    // `Ünïcode` is not an identifier to the lexer (Ralph identifiers are ASCII): no contract, no crash.
    assert.equal(
      scan.decls.some((d) => d.kind === 'contract' && d.name === 'Ünïcode'),
      false,
    );
  });

  it('scans the sandbox project the extension is demonstrated with', () => {
    const dir = join(__dirname, '../../../sandbox/project/contracts');
    const counter = readFileSync(join(dir, 'counter.ral'), 'utf8');
    const scan = scanRalph(counter);
    assert.deepEqual(
      scan.checks.map((c) => [c.kind, c.functionName, c.errorArg]),
      [
        ['assert', 'increment', 'ErrorCodes.Paused'],
        ['assert', 'incrementBy', 'ErrorCodes.Paused'],
        ['assert', 'incrementBy', 'ErrorCodes.StepTooLarge'],
        ['checkCaller', 'reset', 'ErrorCodes.NotOwner'],
        ['checkCaller', 'pause', 'ErrorCodes.NotOwner'],
        ['checkCaller', 'unpause', 'ErrorCodes.NotOwner'],
      ],
    );
    assert.deepEqual(
      scan.emits.filter((e) => e.event === 'Debug').map((e) => e.functionName),
      ['increment'],
    );
  });
});

describe('Ralph source map', () => {
  const map = RalphSourceMap.build([
    { path: 'contracts/vault.ral', text: TOKEN },
    { path: 'contracts/lib/ownable.ral', text: OWNABLE },
    { path: 'contracts/constants.ral', text: GLOBALS },
  ]);

  it('finds a contract and members through its parents and the global scope', () => {
    assert.equal(map.contract('Vault')?.path, 'contracts/vault.ral');
    assert.deepEqual(map.lineage('Vault'), ['Vault', 'Ownable', 'IFungibleToken']);
    const own = map.member('Vault', 'function', 'transferOwnership');
    assert.equal(own?.path, 'contracts/lib/ownable.ral');
    assert.equal(own?.span.start.line, lineOf(OWNABLE, 'pub fn transferOwnership'));
    assert.equal(map.member('Vault', 'event', 'OwnerChanged')?.path, 'contracts/lib/ownable.ral');
    assert.equal(map.member('Vault', 'enumField', 'ErrorCodes.InvalidCaller')?.value, '7');
    assert.equal(map.member('Vault', 'enumField', 'OwnableError.NotOwner')?.value, '100');
    assert.equal(map.member('Vault', 'enumField', 'Shared.Paused')?.path, 'contracts/constants.ral');
    assert.equal(map.member('Vault', 'constant', 'Fee')?.value, '3');
    assert.equal(map.member('Vault', 'constant', 'MaxWithdraw')?.value, '1000');
    assert.equal(map.member('Ownable', 'function', 'deposit'), undefined, 'a parent does not see its child');
    assert.equal(map.member('Nope', 'function', 'deposit'), undefined);
  });

  it('collects check and emit sites of a contract and its parents', () => {
    assert.deepEqual(
      map.checkSites('Vault').map((s) => `${s.path}:${s.functionName}:${s.errorArg}`),
      [
        'contracts/lib/ownable.ral:transferOwnership:OwnableError.NotOwner',
        'contracts/lib/ownable.ral:onlyOwner:OwnableError.NotOwner',
        'contracts/vault.ral:deposit:ErrorCodes.InvalidAmount',
        'contracts/vault.ral:withdraw:ErrorCodes.InvalidAmount',
        'contracts/vault.ral:withdraw:ErrorCodes.InsufficientDeposit',
        'contracts/vault.ral:pause:Shared.Paused',
        'contracts/vault.ral:pause:ErrorCodes.InvalidCaller',
      ],
    );
    assert.deepEqual(
      map.emitSites('Vault', 'Debug').map((e) => e.functionName),
      ['deposit', 'withdraw'],
    );
    assert.equal(map.checkSites('Ownable').length, 2);
  });

  it('survives inheritance cycles in broken code', () => {
    const cyc = RalphSourceMap.build([
      { path: 'a.ral', text: 'Contract A() extends B() { pub fn a() -> () { assert!(true, 1) } }' },
      { path: 'b.ral', text: 'Abstract Contract B() extends A() { fn b() -> () { panic!(2) } }' },
    ]);
    assert.deepEqual(cyc.lineage('A'), ['A', 'B']);
    assert.deepEqual(
      cyc.checkSites('A').map((s) => s.errorArg),
      ['1', '2'],
    );
  });

  it('reads sourceDir from alephium.config.ts text', () => {
    const sourceDirOf = (text: string) => readProjectConfig(text).sourceDir;
    assert.equal(sourceDirOf("const configuration = {\n  sourceDir: 'contracts',\n}"), 'contracts');
    assert.equal(sourceDirOf('{ "sourceDir": "./src/ralph/", "artifactDir": "./artifacts" }'), 'src/ralph');
    // Not written: the CLI's default.
    assert.equal(sourceDirOf('export default { networks: {} }'), 'contracts');
  });

  it('scans a 2,000-line file whole (its time is measured by npm run bench: ralph)', () => {
    const text = bigRalphSource('Contract Big()');
    const lines = text.split('\n').length;
    assert.ok(lines >= 2000, `fixture has ${lines} lines`);
    const scan = scanRalph(text);
    assert.equal(scan.decls.filter((d) => d.kind === 'function').length, 400);
    assert.equal(scan.checks.length, 200);
  });
});
