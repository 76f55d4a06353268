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
import { runJourney, type DapClient } from './dapJourney';

function inProcessClient(): DapClient {
  const received: DapMessage[] = [];
  const waiters: Array<() => void> = [];
  const reader = new DapReader((m) => {
    received.push(m as DapMessage);
    for (const w of waiters.splice(0)) w();
  });
  const adapter = new RalphDebugAdapter(
    (m) => reader.push(frameMessage(m)),
    (args) => methodLaunchOf(args, { readText: (p) => readFile(p, 'utf8') }),
  );
  let seq = 1;
  let eventsRead = 0;
  const next = async (test: (m: DapMessage) => boolean, what: string, from = 0): Promise<DapMessage> => {
    for (let tries = 0; tries < 100; tries++) {
      const found = received.slice(from).find(test);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    throw new Error(`no ${what}`);
  };
  return {
    async request(command, args = {}) {
      const request = { seq: seq++, type: 'request', command, arguments: args };
      await adapter.handle(request);
      const response = await next((m) => m.type === 'response' && m.request_seq === request.seq, command);
      assert.equal(response.success, true, `${command}: ${String(response.message)}`);
      return response;
    },
    async event(name) {
      const events = () => received.filter((m) => m.type === 'event');
      const found = await next(
        (m) => m.type === 'event' && m.event === name && events().indexOf(m) >= eventsRead,
        name,
      );
      eventsRead = events().indexOf(found) + 1;
      return found;
    },
  };
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
});
