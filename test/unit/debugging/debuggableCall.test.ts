/** Debug this failure (issue 31): which failures the Ralph debugger can run again, one rule for the quick fix and the toast. */
import assert from 'node:assert/strict';
import { debuggableCall } from '../../../src/core/debugging/debuggableCall';

const ADDRESS = '22xkgsMEMWyXCM96Y24WMrAW5aY6DDPVx6YhKDxL1pzP9';

describe('debuggableCall', () => {
  it('gives a simulated call back with its arguments as typed', () => {
    assert.deepEqual(
      debuggableCall({ address: ADDRESS, method: 'incrementBy', args: ['101'], origin: 'simulate' }),
      { address: ADDRESS, method: 'incrementBy', args: ['101'] },
    );
  });

  it('has none for a tracked transaction, a call without its contract or method, or arguments not typed', () => {
    assert.equal(
      debuggableCall({ address: ADDRESS, method: 'm', args: [], txId: 'ab'.repeat(32) }),
      undefined,
    );
    assert.equal(debuggableCall({ method: 'm', args: [] }), undefined);
    assert.equal(debuggableCall({ address: ADDRESS, args: [] }), undefined);
    assert.equal(debuggableCall({ address: ADDRESS, method: 'm', args: [101n] }), undefined);
  });
});
