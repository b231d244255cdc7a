/** The Baidu ERNIE (Qianfan v1) channel key: `API_KEY|SECRET_KEY` (new-api's format). */

export interface BaiduKey {
  /** The application's API Key: the OAuth client_id. */
  readonly apiKey: string;
  /** Its Secret Key: the OAuth client_secret. */
  readonly secretKey: string;
}

/** A channel key that is not `API_KEY|SECRET_KEY`. */
export class BaiduKeyError extends Error {
  override readonly name = 'BaiduKeyError';
}

export function parseBaiduKey(key: string): BaiduKey {
  const parts = key
    .trim()
    .split('|')
    .map((part) => part.trim());
  if (parts.length !== 2) {
    throw new BaiduKeyError(`Baidu key must be "API_KEY|SECRET_KEY", got ${parts.length} part(s)`);
  }
  const [apiKey = '', secretKey = ''] = parts;
  // The key never appears in messages: only which part is wrong.
  if (apiKey === '') throw new BaiduKeyError('Baidu key: the API key is empty');
  if (secretKey === '') throw new BaiduKeyError('Baidu key: the secret key is empty');
  if (/\s/.test(apiKey) || /\s/.test(secretKey)) {
    throw new BaiduKeyError('Baidu key: the API key and secret key may not contain spaces');
  }
  return { apiKey, secretKey };
}
