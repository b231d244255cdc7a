import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Epay's MD5 signature: the parameters other than `sign`, `sign_type` and empty values, sorted by
 * name, joined as `k=v` with `&`, the merchant key appended, MD5 in lower-case hex.
 */
export function epaySign(params: Readonly<Record<string, string>>, key: string): string {
  const base = Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  return createHash('md5')
    .update(base + key, 'utf8')
    .digest('hex');
}

/** Constant-time check of a callback's `sign`. */
export function epayVerify(params: Readonly<Record<string, string>>, key: string): boolean {
  const given = params['sign'];
  if (typeof given !== 'string' || !/^[0-9a-fA-F]{32}$/.test(given)) return false;
  const expected = Buffer.from(epaySign(params, key), 'hex');
  return timingSafeEqual(expected, Buffer.from(given.toLowerCase(), 'hex'));
}
