import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hash,
  hkdfSync,
  randomBytes,
} from 'node:crypto';
import type { SealedSecret } from '@tollgate/domain';

/**
 * Secrets (channel keys, token keys, SMTP/OAuth secrets) never go into an event in clear:
 * AES-256-GCM with a key derived from the server secret, plus a keyed hash for equality checks.
 */
export class SecretBox {
  private readonly encryptionKey: Buffer;
  private readonly hashKey: Buffer;

  constructor(serverSecret: string) {
    const ikm = Buffer.from(serverSecret, 'utf8');
    this.encryptionKey = Buffer.from(hkdfSync('sha256', ikm, 'tollgate', 'secret-encryption', 32));
    this.hashKey = Buffer.from(hkdfSync('sha256', ikm, 'tollgate', 'secret-hash', 32));
  }

  seal(plain: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const text = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
    return { cipher: text, hash: this.keyedHash(plain) };
  }

  open(sealed: SealedSecret): string {
    const [iv, tag, body] = sealed.cipher.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !tag || !body) throw new Error('Malformed sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }

  keyedHash(plain: string): string {
    return createHmac('sha256', this.hashKey).update(plain).digest('hex');
  }
}

/** Lookup hash for bearer secrets (access tokens, later sk- keys): unkeyed so any process can compute it. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex'); // the one-shot call: every relayed request hashes its key
}
