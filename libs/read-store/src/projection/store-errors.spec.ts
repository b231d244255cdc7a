import { MongoNetworkError } from 'mongodb';
import { serverError, writeConflict } from '../testing/fake-mongo';
import { ProjectionFailure } from './apply-events';
import { errorLabels, isTransientStoreError } from './store-errors';

describe('isTransientStoreError', () => {
  it('recognises the labels MongoDB puts on errors worth retrying, also under a wrapper', () => {
    expect(errorLabels(writeConflict())).toEqual(['TransientTransactionError']);
    expect(isTransientStoreError(writeConflict())).toBe(true);
    expect(isTransientStoreError(new ProjectionFailure('p', writeConflict()))).toBe(true);
    const unknownCommit = serverError(91, 'ShutdownInProgress', ['UnknownTransactionCommitResult']);
    expect(isTransientStoreError(unknownCommit)).toBe(true);
  });

  it('counts a lost connection as transient even without a label', () => {
    expect(isTransientStoreError(new MongoNetworkError('connection reset'))).toBe(true);
  });

  it('does not retry bugs: unlabelled server errors and plain errors', () => {
    expect(isTransientStoreError(serverError(2, 'BadValue'))).toBe(false);
    expect(isTransientStoreError(new ProjectionFailure('p', new TypeError('x is undefined')))).toBe(
      false,
    );
    expect(errorLabels(new Error('plain'))).toEqual([]);
  });
});
