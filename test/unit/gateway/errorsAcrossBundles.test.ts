/**
 * Errors cross bundles: the activation bundle's client throws them, and code in a lazily loaded bundle
 * (Explain Transaction, What Changed, the actions engine) checks them with its own copy of the classes.
 * A second instance of the module stands for that other bundle.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as Errors from '../../../src/core/gateway/errors';
import type { UserCancelledError } from '../../../src/core/util/errors';
import { isUserCancelled } from '../../../src/core/util/errors';

function anotherBundlesCopy<T>(modulePath: string): T {
  const load = createRequire(__filename);
  const resolved = load.resolve(modulePath);
  const first = load.cache[resolved];
  delete load.cache[resolved];
  try {
    return load(resolved) as T;
  } finally {
    if (first) load.cache[resolved] = first;
  }
}

describe('errors thrown in one bundle, checked in another', () => {
  const other = anotherBundlesCopy<typeof Errors>('../../../src/core/gateway/errors');

  it('is a separate copy of the classes', () => {
    assert.notEqual(other.GatewayHttpError, Errors.GatewayHttpError);
  });

  it('a 400 from the client is a GatewayHttpError to the other copy, and its status is read', () => {
    const thrown = new Errors.GatewayHttpError('POST /contracts/call-tx-script', 400, 'AssertionFailed');
    assert.ok(thrown instanceof other.GatewayHttpError);
    assert.ok(thrown instanceof other.GatewayError);
    assert.ok(other.isGatewayError(thrown));
  });

  it('a class is still not another class of the family, in either copy', () => {
    const quota = new Errors.QuotaExhaustedError('GET /infos/self-clique', Date.now());
    assert.ok(quota instanceof other.QuotaExhaustedError);
    assert.equal(quota instanceof other.GatewayHttpError, false);
    assert.equal(quota instanceof Errors.GatewayHttpError, false);
    assert.equal(new Error('plain') instanceof other.GatewayError, false);
    assert.equal(
      Object.assign(new Error('x'), { name: 'GatewayHttpError', status: 400 }) instanceof
        other.GatewayHttpError,
      false,
    );
  });

  it('a cancelled prompt in a lazy bundle ends a command quietly in the activation bundle', () => {
    const cancelled = new (anotherBundlesCopy<{ UserCancelledError: typeof UserCancelledError }>(
      '../../../src/core/util/errors',
    ).UserCancelledError)();
    assert.ok(isUserCancelled(cancelled));
  });
});
