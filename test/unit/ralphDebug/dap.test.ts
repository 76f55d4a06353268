/** The Ralph debug adapter in process, through its own framing: the issue-31 journey over DAP bytes. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  DapReader,
  RalphDebugAdapter,
  frameMessage,
  type DapMessage,
} from '../../../src/core/ralphDebug/dap';
import { methodLaunchOf } from '../../../src/core/ralphDebug/launchConfig';
import { ARTIFACT, SOURCE, messageClient, runJourney, type DapClient } from './dapJourney';

function inProcessClient(): DapClient {
  const holder: { adapter?: RalphDebugAdapter } = {};
  const { client, receive } = messageClient((request) => holder.adapter?.handle(request));
  // The adapter's messages go through the framing and back, as they would over a pipe.
  const reader = new DapReader((m) => receive(m as DapMessage));
  holder.adapter = new RalphDebugAdapter(
    (m) => reader.push(frameMessage(m)),
    (args) => methodLaunchOf(args, { readText: (p) => readFile(p, 'utf8') }),
  );
  return client;
}

describe('Ralph debug adapter (DAP, in process)', () => {
  it('stops at the assert! line with step = 101, then on StepTooLarge at the same line, then ends', async () => {
    await runJourney(inProcessClient());
  });

  it('reads a message that arrives a byte at a time, and ignores one that is not a request object', async () => {
    const got: unknown[] = [];
    const reader = new DapReader((m) => got.push(m));
    const bytes = Buffer.concat([
      frameMessage({ seq: 1, type: 'request', command: 'threads' }),
      frameMessage({ n: 2 }),
    ]);
    for (const b of bytes) reader.push(Buffer.from([b]));
    assert.deepEqual(got, [{ seq: 1, type: 'request', command: 'threads' }, { n: 2 }]);
    const sent: unknown[] = [];
    const adapter = new RalphDebugAdapter(
      (m) => sent.push(m),
      () => Promise.reject(new Error('no launch')),
    );
    await adapter.handle(null);
    await adapter.handle('x');
    assert.deepEqual(sent, []);
  });

  it('refuses a message without Content-Length, and one over the cap, before parsing it', () => {
    const reader = new DapReader(() => assert.fail('nothing is parsed'));
    assert.throws(() => reader.push(Buffer.from('X: 1\r\n\r\n{}')), /without Content-Length/);
    const big = new DapReader(() => assert.fail('nothing is parsed'));
    assert.throws(() => big.push(Buffer.from('Content-Length: 999999999\r\n\r\n')), /too large/);
  });

  it('shows outside text inert: no escape sequence or bidi override from a launch reaches the console or an error', async () => {
    const sent: DapMessage[] = [];
    const hostile = '\u001b[2J\u001b[31mred\u202eevil';
    const adapter = new RalphDebugAdapter(
      (m) => sent.push(m as DapMessage),
      (args) => methodLaunchOf(args, { readText: (p) => readFile(p, 'utf8') }),
    );
    await adapter.handle({ seq: 1, type: 'request', command: 'initialize', arguments: {} });
    const launch = {
      artifact: ARTIFACT,
      source: SOURCE,
      method: 'get',
      args: [],
      caller: '111111111111111111111111111111115L',
      stateFrom: hostile,
    };
    await adapter.handle({ seq: 2, type: 'request', command: 'launch', arguments: launch });
    await adapter.handle({
      seq: 3,
      type: 'request',
      command: 'launch',
      arguments: { ...launch, method: hostile },
    });
    const texts = sent.map((m) => JSON.stringify(m));
    assert.ok(
      texts.some((t) => t.includes('from redevil')),
      texts.join('\n'),
    );
    assert.ok(
      texts.some((t) => t.includes('has no method redevil')),
      texts.join('\n'),
    );
    for (const t of texts) assert.doesNotMatch(t, /\\u001b|\\u202e|\u001b|\u202e/);
  });
});
