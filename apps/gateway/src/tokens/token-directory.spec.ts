import { recordedEvent as recorded } from '@tollgate/testing/recorded-event';
import { sha256Hex } from '../infrastructure/secret-box';
import { TokenDirectory } from './token-directory';

const KEY = 'k'.repeat(48);
const settings = {
  name: 'main',
  expiredTime: -1,
  remainQuota: 10,
  unlimitedQuota: false,
  modelLimitsEnabled: true,
  modelLimits: ['gpt-4o'],
  allowIps: ['10.0.0.0/8'],
  group: 'vip',
  rateLimits: { rpm: 60, tpm: 0, concurrency: 2 },
};

describe('TokenDirectory', () => {
  it('finds tokens by the SHA-256 of their key and follows their life', () => {
    const directory = new TokenDirectory();
    directory.apply([
      recorded('UserRegistered', { userId: 4, username: 'alice', role: 1, group: 'default' }),
      recorded('TokenCreated', {
        tokenId: 9,
        userId: 4,
        sealedKey: { cipher: 'c', hash: 'h' },
        keyHash: sha256Hex(KEY),
        createdTime: 0,
        ...settings,
      }),
    ]);
    expect(directory.byKey(KEY)).toEqual({
      id: 9,
      userId: 4,
      status: 1,
      name: 'main',
      expiredTime: -1,
      unlimitedQuota: false,
      modelLimitsEnabled: true,
      modelLimits: ['gpt-4o'],
      allowIps: ['10.0.0.0/8'],
      group: 'vip',
      rateLimits: { rpm: 60, tpm: 0, concurrency: 2 },
      modelFallback: true,
    });
    expect(directory.byKey('x'.repeat(48))).toBeUndefined();
    expect(directory.user(4)).toEqual({
      id: 4,
      username: 'alice',
      status: 1,
      role: 1,
      group: 'default',
    });

    directory.apply([
      recorded('TokenUpdated', { tokenId: 9, userId: 4, ...settings, name: 'renamed' }),
      recorded('TokenStatusChanged', { tokenId: 9, userId: 4, from: 1, to: 3, reason: 'expired' }),
      recorded('UserStatusChanged', { userId: 4, from: 1, to: 2 }),
      recorded('UserGroupChanged', { userId: 4, from: 'default', to: 'vip' }),
    ]);
    expect(directory.byKey(KEY)).toMatchObject({ name: 'renamed', status: 3 });
    directory.apply([
      recorded('TokenUpdated', {
        tokenId: 9,
        userId: 4,
        ...settings,
        name: 'renamed',
        modelFallback: false,
      }),
    ]);
    expect(directory.byKey(KEY)?.modelFallback).toBe(false);
    expect(directory.byId(9)).toMatchObject({ name: 'renamed' });
    expect(directory.user(4)).toMatchObject({ status: 2, group: 'vip' });

    directory.apply([
      recorded('TokenDeleted', { tokenId: 9, userId: 4, keyHash: sha256Hex(KEY) }),
      recorded('UserDeregistered', { userId: 4, by: 'self' }),
    ]);
    expect(directory.byKey(KEY)).toBeUndefined();
    expect(directory.user(4)).toBeUndefined();
  });

  it('holds no clear key', () => {
    const directory = new TokenDirectory();
    directory.apply([
      recorded('TokenCreated', {
        tokenId: 1,
        userId: 1,
        sealedKey: { cipher: 'c', hash: 'h' },
        keyHash: sha256Hex(KEY),
        createdTime: 0,
        ...settings,
      }),
    ]);
    const dump = JSON.stringify(directory, (_k, v: unknown) =>
      v instanceof Map ? [...(v as Map<unknown, unknown>).entries()] : v,
    );
    expect(dump).not.toContain(KEY);
  });
});
