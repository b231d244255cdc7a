/**
 * The secrets in a channel's key, by the key format of its type (the formats the provider key
 * parsers read: bedrock-key, baidu-key, tencent-key, vertex-key, Xunfei's and Zhipu's in the
 * wire and adaptor). The whole key is always a secret; so is each line of a key field holding
 * several keys. Parts that only name something are not masked: Bedrock's region, the AppId of
 * Xunfei, Tencent and FastGPT keys. Anything shorter than MIN_SECRET_LENGTH is left alone.
 */
import { withFields } from '@tollgate/domain';
import { channelTypeInfo } from '@tollgate/contracts';
import type { AttemptFailure } from '../routing/failure-policy';
import { SecretScrubber } from './secret-scrubber';

/** Zhipu's legacy v3 keys are `id.secret`, signed into a JWT (zhipu-adaptor). */
const ZHIPU_V3_TYPE = 16;
/** Service-account members that authorize; the e-mail, project and client id only name. */
const SECRET_JSON_MEMBER = /secret|private_key_id|refresh_token/;

/** The lines of a PEM (its newlines may be escaped as `\n`), without the BEGIN/END markers. */
function pemLines(pem: string): string[] {
  return pem
    .replace(/\\n/g, '\n')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('-----'));
}

/** A JSON key (Vertex AI's service-account file): its private key, line by line, and secrets. */
function jsonKeyParts(text: string): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return text.split(/\r?\n/).map((line) => line.trim());
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return [];
  const parts: string[] = [];
  for (const [name, value] of Object.entries(doc as Record<string, unknown>)) {
    if (typeof value !== 'string') continue;
    if (name === 'private_key') parts.push(...pemLines(value));
    else if (SECRET_JSON_MEMBER.test(name)) parts.push(value.trim());
  }
  return parts;
}

/** The secret parts of one key (one line of the key field). */
function keyParts(type: number, key: string): string[] {
  const format = channelTypeInfo(type)?.keyFormat;
  const parts = key.split('|').map((part) => part.trim());
  switch (format) {
    case 'APIKey|SecretKey':
      return parts;
    case 'APPID|APISecret|APIKey':
    case 'AppId|SecretId|SecretKey':
      return parts.slice(1);
    case 'Ak|Sk|Region': {
      // AccessKeyId|SecretAccessKey|Region[|SessionToken]
      const [accessKeyId = '', secretAccessKey = '', , sessionToken = ''] = parts;
      return [accessKeyId, secretAccessKey, sessionToken];
    }
    case 'APIKey-AppId': {
      const dash = key.lastIndexOf('-');
      return dash > 0 ? [key.slice(0, dash)] : [];
    }
    case 'json':
      return jsonKeyParts(key);
    default: {
      if (type === ZHIPU_V3_TYPE) {
        const dot = key.indexOf('.');
        return dot > 0 ? [key.slice(0, dot), key.slice(dot + 1)] : [];
      }
      // A type this table does not know: every part of a composite key.
      return parts.length > 1 ? parts : [];
    }
  }
}

/** Every secret in a channel's key field. */
export function channelKeySecrets(type: number, key: string): string[] {
  const whole = key.trim();
  if (whole === '') return [];
  const secrets = new Set<string>([whole]);
  const keys =
    channelTypeInfo(type)?.jsonKey === true
      ? [whole]
      : whole
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter((line) => line !== '');
  for (const one of keys) {
    secrets.add(one);
    for (const part of keyParts(type, one)) if (part !== '') secrets.add(part);
  }
  return [...secrets];
}

/** Built once per channel object (the routing table replaces the object when the key changes). */
const SCRUBBERS = new WeakMap<object, SecretScrubber>();

/** The scrubber of a channel's key: what any text from that channel's upstream goes through. */
export function channelScrubber(channel: {
  readonly type: number;
  readonly key: string;
}): SecretScrubber {
  let scrubber = SCRUBBERS.get(channel);
  if (!scrubber) {
    scrubber = SecretScrubber.of(channelKeySecrets(channel.type, channel.key));
    SCRUBBERS.set(channel, scrubber);
  }
  return scrubber;
}

/** A failure whose texts (message, and type and code, which some upstreams fill freely) are scrubbed. */
export function scrubFailure(failure: AttemptFailure, scrubber: SecretScrubber): AttemptFailure {
  if (!scrubber.active) return failure;
  if (failure.kind !== 'http')
    return withFields(failure, { message: scrubber.text(failure.message) });
  return withFields(failure, {
    message: scrubber.text(failure.message),
    type: scrubber.text(failure.type),
    code: scrubber.text(failure.code),
  });
}
