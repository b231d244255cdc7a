import { describe, expect, it } from 'vitest';
import { failureReasonKey } from './failure-reason';

describe('failureReasonKey', () => {
  it('names the network failures Node reports', () => {
    expect(failureReasonKey('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:4598')).toBe('refused');
    expect(failureReasonKey('ETIMEDOUT: connect ETIMEDOUT 10.0.0.1:443')).toBe('timeout');
    expect(failureReasonKey('upstream timed out after 30000 ms')).toBe('timeout');
    expect(failureReasonKey('ENOTFOUND: getaddrinfo ENOTFOUND api.example')).toBe('notFound');
  });

  it('names the HTTP refusals by status', () => {
    expect(failureReasonKey('Incorrect API key provided', 401)).toBe('unauthorized');
    expect(failureReasonKey('no access', 403)).toBe('forbidden');
    expect(failureReasonKey('slow down', 429)).toBe('rateLimited');
    expect(failureReasonKey('bad gateway', 502)).toBe('serverError');
    expect(failureReasonKey('internal', 500)).toBe('serverError');
  });

  it('says nothing better than the raw text otherwise', () => {
    expect(failureReasonKey('model not found', 404)).toBeUndefined();
    expect(failureReasonKey('something odd')).toBeUndefined();
  });
});
