/**
 * The AWS Bedrock channel key: `AccessKeyId|SecretAccessKey|Region` (new-api's format), with an
 * optional fourth part, the session token of temporary (STS) credentials.
 */

export interface BedrockCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

export interface BedrockKey {
  readonly credentials: BedrockCredentials;
  /** e.g. `us-east-1`. */
  readonly region: string;
}

/** A channel key that is not `Ak|Sk|Region[|SessionToken]`. */
export class BedrockKeyError extends Error {
  override readonly name = 'BedrockKeyError';
}

// Region names are lower-case words and digits joined by dashes (us-east-1, us-gov-west-1).
const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

export function parseBedrockKey(key: string): BedrockKey {
  const parts = key
    .trim()
    .split('|')
    .map((part) => part.trim());
  if (parts.length < 3 || parts.length > 4) {
    throw new BedrockKeyError(
      `AWS key must be "AccessKeyId|SecretAccessKey|Region" (optionally "|SessionToken"), got ${parts.length} part(s)`,
    );
  }
  const [accessKeyId = '', secretAccessKey = '', region = '', sessionToken = ''] = parts;
  if (accessKeyId === '') throw new BedrockKeyError('AWS key: the access key id is empty');
  if (secretAccessKey === '') throw new BedrockKeyError('AWS key: the secret access key is empty');
  if (region === '') throw new BedrockKeyError('AWS key: the region is empty');
  // The key never appears in messages: only which part is wrong.
  if (/\s/.test(accessKeyId) || /\s/.test(secretAccessKey)) {
    throw new BedrockKeyError('AWS key: the access key id and secret may not contain spaces');
  }
  if (!REGION.test(region)) {
    throw new BedrockKeyError(`AWS key: "${region}" is not an AWS region (e.g. us-east-1)`);
  }
  if (parts.length === 4 && sessionToken === '') {
    throw new BedrockKeyError('AWS key: the session token (fourth part) is empty');
  }
  return {
    credentials: sessionToken
      ? { accessKeyId, secretAccessKey, sessionToken }
      : { accessKeyId, secretAccessKey },
    region,
  };
}
