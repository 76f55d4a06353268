/**
 * The language-model tools' core: input checks (before any request), the cost said in the invocation
 * message and when it is worth a confirmation, the requests they send through the one client, and the
 * answer text built from inert values.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type ContractArtifact,
  getterIndexes,
  parseContractArtifact,
  type ResolvedContract,
} from '../../../src/core/artifacts';
import {
  parseContractStateInput,
  parseDecodeUnsignedTxInput,
  parseExplainTransactionInput,
  parseRecentEventsInput,
  resolveContractText,
  ToolInputError,
  TOOL_NAMES,
  MAX_UNSIGNED_TX_HEX_CHARS,
} from '../../../src/core/assistant/toolInput';
import {
  contractStateCost,
  DECODE_COST,
  invalidInputInvocation,
  preparedInvocation,
  RECENT_EVENTS_CAVEAT,
} from '../../../src/core/assistant/toolCosts';
import { contractStateText, readContractState } from '../../../src/core/assistant/contractState';
import {
  decodeRecentEvents,
  readRecentEvents,
  recentEventsText,
} from '../../../src/core/assistant/recentEvents';
import { decodedTxText, decodeForTool } from '../../../src/core/assistant/decodeTx';
import { MAX_ANSWER_CHARS } from '../../../src/core/assistant/answerText';
import { addressFromContractId, addressFromPublicKey, encodeUnsignedTx } from '../../../src/core/protocol';
import { REGISTERED_TOOLS } from '../../../src/core/assistant/toolNames';
import { EXPLAIN_CAVEAT, explanationAnswer } from '../../../src/core/assistant/explain';
import { EXPLAIN_COST } from '../../../src/core/debugging/transactionExplanation';
import { latestEventsCost } from '../../../src/core/usage/costs';
import { harness, json } from '../gateway/helpers';

const COUNTER: ContractArtifact = parseContractArtifact(
  JSON.parse(
    fs.readFileSync(
      path.join(import.meta.dirname, '../../../sandbox/project/artifacts/Counter.ral.json'),
      'utf8',
    ),
  ),
);
const CONTRACT = addressFromContractId('11'.repeat(32));
const OWNER = addressFromPublicKey(`02${'22'.repeat(32)}`);
const MATCHED: ResolvedContract = {
  deployment: undefined,
  network: undefined,
  artifact: COUNTER,
  drift: { status: 'match', message: 'matches' },
};
const STATE = {
  address: CONTRACT,
  bytecode: '00',
  codeHash: COUNTER.codeHash,
  immFields: [{ type: 'Address', value: OWNER }],
  mutFields: [
    { type: 'U256', value: '7' },
    { type: 'Bool', value: false },
  ],
  asset: { attoAlphAmount: '1500000000000000000' },
};

function problemOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ToolInputError, `not a ToolInputError: ${String(e)}`);
    return e.message;
  }
  assert.fail('no input error');
}

describe('language-model tools: input checks (before any request)', () => {
  it('contract state: an object with a contract, no other field, no address of another type', () => {
    assert.deepEqual(parseContractStateInput({ contract: ` ${CONTRACT} ` }), { contract: CONTRACT });
    assert.match(
      problemOf(() => parseContractStateInput('Counter')),
      /alephium_contractState: the input must be an object with contract/,
    );
    assert.match(
      problemOf(() => parseContractStateInput(null)),
      /must be an object/,
    );
    assert.match(
      problemOf(() => parseContractStateInput([CONTRACT])),
      /must be an object/,
    );
    assert.match(
      problemOf(() => parseContractStateInput({})),
      /contract is required/,
    );
    assert.match(
      problemOf(() => parseContractStateInput({ contract: 42 })),
      /contract is required/,
    );
    assert.match(
      problemOf(() => parseContractStateInput({ contract: 'x'.repeat(201) })),
      /201 characters long/,
    );
    assert.match(
      problemOf(() => parseContractStateInput({ contract: OWNER })),
      /is a P2PKH address; a contract address \(P2C\) is needed/,
    );
    assert.match(
      problemOf(() => parseContractStateInput({ contract: CONTRACT, sign: true })),
      /unknown input "sign"; it takes contract/,
    );
  });

  it('recent events: count defaults to 10 and is a whole number from 1 to 1000', () => {
    assert.deepEqual(parseRecentEventsInput({ contract: 'Counter' }), { contract: 'Counter', count: 10 });
    assert.equal(parseRecentEventsInput({ contract: 'Counter', count: 1000 }).count, 1000);
    for (const bad of [0, -1, 1001, 2.5, Number.NaN])
      assert.match(
        problemOf(() => parseRecentEventsInput({ contract: 'Counter', count: bad })),
        /count must be a whole number from 1 to 1000/,
      );
    assert.match(
      problemOf(() => parseRecentEventsInput({ contract: 'Counter', count: '5' })),
      /got "5"/,
    );
  });

  it('decode: hex only, even, 0x and whitespace accepted, at most 64 KiB', () => {
    assert.deepEqual(parseDecodeUnsignedTxInput({ unsignedTx: ' 0xAB cd\n' }), { unsignedTx: 'abcd' });
    assert.match(
      problemOf(() => parseDecodeUnsignedTxInput({})),
      /unsignedTx is required/,
    );
    assert.match(
      problemOf(() => parseDecodeUnsignedTxInput({ unsignedTx: 'abc' })),
      /hex digits only \(an even number/,
    );
    assert.match(
      problemOf(() => parseDecodeUnsignedTxInput({ unsignedTx: 'zz' })),
      /hex digits only/,
    );
    assert.match(
      problemOf(() =>
        parseDecodeUnsignedTxInput({ unsignedTx: '00'.repeat(MAX_UNSIGNED_TX_HEX_CHARS / 2 + 1) }),
      ),
      /a transaction is at most 65536/,
    );
    // Megabytes are refused before any pass over them.
    assert.match(
      problemOf(() => parseDecodeUnsignedTxInput({ unsignedTx: 'a'.repeat(5_000_000) })),
      /5000000 characters/,
    );
  });

  it('explain: a txId of 64 hex digits', () => {
    assert.deepEqual(parseExplainTransactionInput({ txId: 'AB'.repeat(32) }), { txId: 'ab'.repeat(32) });
    assert.match(
      problemOf(() => parseExplainTransactionInput({ txId: 'ab' })),
      /txId must be a transaction id of 64 hex digits, got "ab"/,
    );
    assert.match(
      problemOf(() => parseExplainTransactionInput({})),
      /got nothing/,
    );
  });

  it('a name resolves to one watched contract first, then to a deployment; otherwise the known names are listed', () => {
    const other = addressFromContractId('33'.repeat(32));
    const known = [
      { name: 'Counter', address: CONTRACT, source: 'watched' as const },
      { name: 'Counter', address: other, source: 'deployment' as const },
      { name: 'Faucet', address: other, source: 'deployment' as const },
    ];
    const tool = TOOL_NAMES.contractState;
    assert.equal(resolveContractText(tool, CONTRACT, []), CONTRACT);
    assert.equal(resolveContractText(tool, 'Counter', known), CONTRACT);
    assert.equal(resolveContractText(tool, 'Faucet', known), other);
    assert.match(
      problemOf(() => resolveContractText(tool, 'Nope', known)),
      /"Nope" is neither a contract address nor the name of a watched contract or deployment \(known: "Counter", "Faucet"\)/,
    );
    assert.match(
      problemOf(() => resolveContractText(tool, 'Nope', [])),
      /none are watched or deployed/,
    );
    const twice = [
      { name: 'Twin', address: CONTRACT, source: 'deployment' as const },
      { name: 'Twin', address: other, source: 'deployment' as const },
    ];
    assert.match(
      problemOf(() => resolveContractText(tool, 'Twin', twice)),
      /names 2 contracts; give the address/,
    );
  });

  it('quotes a hostile value inertly in its error', () => {
    const message = problemOf(() =>
      resolveContractText(TOOL_NAMES.contractState, '[x](command:evil)\u202e', []),
    );
    assert.ok(!message.includes(']('), message);
    assert.ok(!message.includes('\u202e'), message);
  });
});

describe('language-model tools: cost in the invocation message, confirmation only when worth it', () => {
  it('says each cost; decoding sends nothing', () => {
    assert.deepEqual(contractStateCost(0), { min: 1, max: 1 });
    assert.deepEqual(contractStateCost(1), { min: 1, max: 2 });
    assert.deepEqual(contractStateCost(21), { min: 1, max: 3 });
    assert.deepEqual(latestEventsCost(10), { min: 2, max: 4 });
    assert.deepEqual(latestEventsCost(1000), { min: 11, max: 31 });
    assert.deepEqual(getterIndexes(COUNTER), [0]);
    assert.deepEqual(getterIndexes(undefined), []);
    const decode = preparedInvocation('Decoding the unsigned transaction', DECODE_COST, false);
    assert.equal(
      decode.invocationMessage,
      'Decoding the unsigned transaction costs 0 requests. Nothing is sent to the gateway.',
    );
    assert.equal(decode.confirmation, undefined);
  });

  it('asks only above a few requests (the commands’ threshold), and never in the extension’s own tests', () => {
    const small = preparedInvocation('Reading the latest 10 events of Counter', latestEventsCost(10), false, {
      caveat: RECENT_EVENTS_CAVEAT,
    });
    assert.equal(
      small.invocationMessage,
      'Reading the latest 10 events of Counter costs 2 to 4 requests (the most only with gaps such as hidden Debug slots; the read stops there).',
    );
    assert.equal(small.confirmation, undefined);
    const large = preparedInvocation(
      'Reading the latest 1000 events of Counter',
      latestEventsCost(1000),
      false,
      { monthLeft: 90 },
    );
    assert.equal(
      large.invocationMessage,
      'Reading the latest 1000 events of Counter costs 11 to 31 requests, of the 90 left this month.',
    );
    assert.deepEqual(large.confirmation, {
      title: 'Alephium: Reading the latest 1000 events of Counter?',
      message:
        "Reading the latest 1000 events of Counter costs 11 to 31 requests, of the 90 left this month. They count against your API key's rate and monthly limits.",
    });
    const inTests = preparedInvocation(
      'Reading the latest 1000 events of Counter',
      latestEventsCost(1000),
      true,
    );
    assert.equal(inTests.confirmation, undefined);
    assert.match(inTests.invocationMessage, /costs 11 to 31 requests/);
  });

  it('an invalid input prepares no request', () => {
    assert.equal(
      invalidInputInvocation('x: bad').invocationMessage,
      'Invalid input, no request is sent: x: bad',
    );
  });
});

describe('language-model tools: requests through the one client, and the answers', () => {
  it('contract state: one fresh state read and one multicall for the getters, under the assistant purpose', async () => {
    const { client, transport, clock } = harness();
    const kinds: string[] = [];
    client.onRequest((r) => kinds.push(r.kind));
    transport.on(/^\/contracts\/[^/]+\/state$/, json(200, STATE));
    transport.on(
      '/contracts/multicall-contract',
      json(200, {
        results: [
          {
            type: 'CallContractSucceeded',
            returns: [{ type: 'U256', value: '7' }],
            gasUsed: 1,
            contracts: [],
            txInputs: [],
            txOutputs: [],
            events: [],
            debugMessages: [],
          },
        ],
      }),
    );
    const reading = await clock.run(
      readContractState({ client, resolve: () => Promise.resolve(MATCHED) }, CONTRACT, 'Counter'),
    );
    assert.deepEqual(transport.paths(), [`/contracts/${CONTRACT}/state`, '/contracts/multicall-contract']);
    assert.deepEqual(kinds, ['assistant', 'assistant']);
    const text = contractStateText(reading);
    assert.match(
      text,
      new RegExp(`^Contract Counter at ${CONTRACT} \\(group \\d\\), read from the gateway just now\\.`),
    );
    assert.match(text, /Artifact: Counter \(its code hash matches the chain\)\./);
    const debugBuild = {
      ...reading,
      resolved: { ...MATCHED, drift: { status: 'match' as const, message: '', debugBuild: true } },
    };
    assert.match(
      contractStateText(debugBuild),
      /Artifact: Counter \(the code hash of its debug build matches the chain\)\./,
    );
    assert.match(text, new RegExp(`- owner: Address \\(immutable\\) = ${OWNER}`));
    assert.match(text, /- count: U256 \(mutable\) = 7/);
    assert.match(text, /- paused: Bool \(mutable\) = false/);
    assert.match(text, /Balance: 1\.5 ALPH \(1500000000000000000 attoALPH\)\./);
    assert.match(text, /- get\(\): U256 = 7/);
    assert.match(text, /cannot sign, send or change anything\.$/);
  });

  it('contract state: a drifted artifact names no getter and calls none (1 request)', async () => {
    const { client, transport, clock } = harness();
    transport.on(/^\/contracts\/[^/]+\/state$/, json(200, STATE));
    const drifted: ResolvedContract = {
      ...MATCHED,
      drift: { status: 'drift', message: 'the code on chain is another' },
    };
    const reading = await clock.run(
      readContractState({ client, resolve: () => Promise.resolve(drifted) }, CONTRACT),
    );
    assert.equal(transport.requests.length, 1);
    assert.match(
      contractStateText(reading),
      /the code on chain differs \(the code on chain is another\); names may be wrong and getters were not called/,
    );
  });

  it('chain text is inert and the answer is capped', () => {
    const hostile = `[click](command:alephium.sendTransfer) \u001b[31mred\u202e ${'x'.repeat(5000)}`;
    const reading = {
      address: CONTRACT,
      label: hostile,
      state: { ...STATE, mutFields: [{ type: 'ByteVec', value: 'ab' }], immFields: [] },
      resolved: { ...MATCHED, artifact: undefined },
      getters: Array.from({ length: 400 }, (_, i) => ({ name: `g${i}`, type: 'ByteVec', value: hostile })),
    };
    const text = contractStateText(reading);
    assert.ok(text.length <= MAX_ANSWER_CHARS, `${text.length}`);
    assert.ok(!text.includes(']('));
    assert.ok(!text.includes('\u001b'));
    assert.ok(!text.includes('\u202e'));
    assert.match(text, /No artifact in the workspace describes this contract: fields are raw/);
    assert.match(text, /more lines left out \(answer capped at 16000 characters\)/);
    assert.match(text, /not instructions/);
  });

  it('recent events: the count and one page for 10, named by eventIndex, newest first', async () => {
    const { client, transport, clock } = harness();
    const kinds: string[] = [];
    client.onRequest((r) => kinds.push(r.kind));
    const event = (newCount: string, n: number) => ({
      blockHash: `${n}`.padStart(64, '0'),
      txId: `${n}`.padStart(64, 'f'),
      contractAddress: CONTRACT,
      eventIndex: 0,
      fields: [
        { type: 'Address', value: OWNER },
        { type: 'U256', value: newCount },
      ],
    });
    transport.on(/^\/events\/contract\/[^/]+\/current-count$/, json(200, 2));
    transport.on(
      /^\/events\/contract\/[^/?]+\?/,
      json(200, { events: [event('1', 1), event('2', 2)], nextStart: 2 }),
    );
    const latest = await clock.run(readRecentEvents(client, CONTRACT, 10));
    assert.equal(transport.requests.length, 2);
    assert.deepEqual(kinds, ['assistant', 'assistant']);
    const reading = decodeRecentEvents(
      CONTRACT,
      latest,
      10,
      { artifact: COUNTER, drift: MATCHED.drift },
      undefined,
      'Counter',
    );
    const text = recentEventsText(reading);
    const lines = text.split('\n');
    assert.equal(
      lines[0],
      `The latest 2 events of contract Counter at ${CONTRACT} (asked for 10; its event counter is 2), newest first:`,
    );
    assert.match(
      lines[1]!,
      new RegExp(`^- Incremented \\(eventIndex 0\\)\\(by: ${OWNER}, newCount: 2\\) · tx f+2 · block 0+2$`),
    );
    assert.match(lines[2]!, /newCount: 1\)/);
  });

  it('recent events: an unknown index is said, not guessed', () => {
    const reading = decodeRecentEvents(
      CONTRACT,
      {
        events: [
          {
            blockHash: '0'.repeat(64),
            txId: 'f'.repeat(64),
            contractAddress: CONTRACT,
            eventIndex: 9,
            fields: [],
          },
        ],
        nextStart: 1,
        count: 1,
        requests: 2,
      },
      5,
      { artifact: COUNTER, drift: MATCHED.drift },
    );
    assert.match(recentEventsText(reading), /warning: /);
  });

  it('decode: local, named outputs, fee; bytes that are not a transaction are an input error', () => {
    const hex = encodeUnsignedTx({
      version: 0,
      networkId: 4,
      gasAmount: 20000,
      gasPrice: '100000000000',
      inputs: [{ outputRef: { hint: 1, key: '44'.repeat(32) }, unlockScript: `00${'02'}${'22'.repeat(32)}` }],
      fixedOutputs: [
        { attoAlphAmount: '2500000000000000000', address: OWNER, tokens: [], lockTime: 0, message: '' },
      ],
    });
    const decoded = decodeForTool(hex);
    const text = decodedTxText(decoded, () => undefined);
    assert.match(
      text,
      new RegExp(
        `^Unsigned transaction ${decoded.txId} \\(txId computed from the bytes\\), decoded locally: no request was sent, nothing was signed\\.`,
      ),
    );
    assert.match(text, /network id 4/);
    assert.match(text, /Gas: 20000 at 100000000000 attoALPH each; fee 0\.002 ALPH\./);
    assert.match(text, new RegExp(`- 1\\. ${OWNER}: 2\\.5 ALPH`));
    assert.match(text, /No script: a transfer\./);
    assert.match(
      problemOf(() => decodeForTool('00')),
      /alephium_decodeUnsignedTx: unsignedTx is not an unsigned transaction/,
    );
  });
});

describe('language-model tools: package.json declares what is registered', () => {
  interface Declared {
    name: string;
    displayName?: string;
    modelDescription?: string;
    userDescription?: string;
    toolReferenceName?: string;
    canBeReferencedInPrompt?: boolean;
    inputSchema?: {
      properties?: Record<string, unknown>;
      required?: string[];
      additionalProperties?: boolean;
    };
  }
  const manifest = JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, '../../../package.json'), 'utf8'),
  ) as { contributes: { languageModelTools?: Declared[] } };
  const declared = manifest.contributes.languageModelTools ?? [];

  it('declares exactly the registered tools, with what the workbench requires', () => {
    assert.deepEqual(declared.map((t) => t.name).sort(), [...REGISTERED_TOOLS].sort());
    for (const t of declared) {
      // The 1.100 workbench refuses names outside this pattern, and entries without these fields.
      assert.match(t.name, /^(?!copilot_|vscode_)[\w-]+$/);
      assert.ok(t.displayName && t.modelDescription && t.userDescription, t.name);
      assert.ok(t.canBeReferencedInPrompt === true && /^\w+$/.test(t.toolReferenceName ?? ''), t.name);
      assert.equal(t.inputSchema?.additionalProperties, false, t.name);
    }
  });

  it('each schema names the fields its check accepts (the check is what holds)', () => {
    const byName = new Map(declared.map((t) => [t.name, t]));
    const fields = (name: string) => Object.keys(byName.get(name)?.inputSchema?.properties ?? {}).sort();
    assert.deepEqual(fields(TOOL_NAMES.contractState), ['contract']);
    assert.deepEqual(fields(TOOL_NAMES.recentEvents), ['contract', 'count']);
    assert.deepEqual(fields(TOOL_NAMES.decodeUnsignedTx), ['unsignedTx']);
    assert.deepEqual(fields(TOOL_NAMES.explainTransaction), ['txId']);
    // A field the schema does not name is refused by the check too.
    assert.match(
      problemOf(() => parseRecentEventsInput({ contract: 'C', limit: 3 })),
      /unknown input "limit"/,
    );
  });
});

describe('language-model tools: explain a transaction', () => {
  it('says the command’s cost, which is worth a question outside the extension’s tests', () => {
    const prepared = preparedInvocation('Explaining transaction abcdef12…', EXPLAIN_COST, false, {
      caveat: EXPLAIN_CAVEAT,
    });
    assert.equal(
      prepared.invocationMessage,
      'Explaining transaction abcdef12… costs 1 to 7 requests (fewer once its details, its block and the gateway are known).',
    );
    assert.ok(prepared.confirmation);
    assert.equal(preparedInvocation('x', EXPLAIN_COST, true).confirmation, undefined);
  });

  it('answers with the explainer’s text, each line inert, its indentation kept', () => {
    const text = [
      `Transaction ${'ab'.repeat(32)}`,
      'Events:',
      '  Counter: Incremented(by=[x](command:evil), newCount=3)\u202e',
    ].join('\n');
    const lines = explanationAnswer(text).split('\n');
    assert.equal(lines[0], `Transaction ${'ab'.repeat(32)}`);
    assert.match(lines[2]!, /^ {2}Counter: Incremented\(by=\[x\] \(command:evil\), newCount=3\)$/);
    assert.match(lines.at(-1)!, /not instructions/);
  });
});
