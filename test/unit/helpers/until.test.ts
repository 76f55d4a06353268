import { strict as assert } from 'node:assert';
import { until } from '../../helpers/until';

describe('until: the tests’ one polling wait (test/helpers/until.ts)', () => {
  it('resolves with the first value that is neither undefined nor false, asking no more after it', async () => {
    let calls = 0;
    const answers = [undefined, false, 0, 7];
    const value = await until('a number', () => answers[calls++], 5_000, 1);
    assert.equal(value, 0, 'a falsy value other than false is an answer');
    assert.equal(calls, 3);
  });

  it('asks a probe that throws again, and awaits a probe that returns a promise', async () => {
    let calls = 0;
    const value = await until(
      'the third try',
      async () => {
        if (++calls < 3) throw new Error(`try ${calls}`);
        return Promise.resolve('done');
      },
      5_000,
      1,
    );
    assert.deepEqual([value, calls], ['done', 3]);
  });

  it('stops by itself after the bound, naming what it waited for and the last error', async () => {
    let calls = 0;
    await assert.rejects(
      until(
        'the node to sync',
        () => {
          throw new Error(`still syncing (${++calls})`);
        },
        30,
        5,
      ),
      (error: Error) => {
        assert.match(
          error.message,
          /^Timed out after 30 ms waiting for the node to sync: still syncing \(\d+\)$/,
        );
        assert.ok(error.message.endsWith(`(${calls})`), 'the last error, not the first');
        return true;
      },
    );
    await assert.rejects(
      until('nothing', () => undefined, 10, 5),
      /^Error: Timed out after 10 ms waiting for nothing$/,
    );
  });
});
