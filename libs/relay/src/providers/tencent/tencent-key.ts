/**
 * The Tencent Hunyuan channel key: `AppId|SecretId|SecretKey` (new-api's format). The AppId was
 * needed by the retired hunyuan.cloud.tencent.com API; it is checked but not sent.
 */

export interface TencentKey {
  readonly appId: string;
  readonly secretId: string;
  readonly secretKey: string;
}

/** A channel key that is not `AppId|SecretId|SecretKey`. */
export class TencentKeyError extends Error {
  override readonly name = 'TencentKeyError';
}

export function parseTencentKey(key: string): TencentKey {
  const parts = key
    .trim()
    .split('|')
    .map((part) => part.trim());
  if (parts.length !== 3) {
    throw new TencentKeyError(
      `Tencent key must be "AppId|SecretId|SecretKey", got ${parts.length} part(s)`,
    );
  }
  const [appId = '', secretId = '', secretKey = ''] = parts;
  // The key never appears in messages: only which part is wrong.
  if (!/^\d+$/.test(appId)) throw new TencentKeyError('Tencent key: the AppId must be a number');
  if (secretId === '') throw new TencentKeyError('Tencent key: the SecretId is empty');
  if (secretKey === '') throw new TencentKeyError('Tencent key: the SecretKey is empty');
  if (/\s/.test(secretId) || /\s/.test(secretKey)) {
    throw new TencentKeyError('Tencent key: the SecretId and SecretKey may not contain spaces');
  }
  return { appId, secretId, secretKey };
}
