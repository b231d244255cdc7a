import { parseTrustProxy } from './trust-proxy';

describe('parseTrustProxy', () => {
  it('trusts nothing by default', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
  });

  it('reads "true" as one hop, never as every hop', () => {
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
  });

  it('takes addresses, CIDRs and the named ranges', () => {
    expect(parseTrustProxy('10.0.0.1, 172.16.0.0/12,::1,fd00::/8, loopback')).toEqual([
      '10.0.0.1',
      '172.16.0.0/12',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses what is neither, naming it', () => {
    expect(() => parseTrustProxy('proxy.local')).toThrow(/proxy\.local/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/10\.0\.0\.0\/33/);
    expect(() => parseTrustProxy('10.0.0.1/8/1')).toThrow();
    expect(() => parseTrustProxy('yes')).toThrow();
  });
});
