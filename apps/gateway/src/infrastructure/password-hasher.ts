import { randomBytes } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

/** argon2id (OWASP's second profile: 19 MiB, t=2, p=1), in WebAssembly: no native build. */
export class PasswordHasher {
  constructor(private readonly memorySize = 19456) {}

  hash(password: string): Promise<string> {
    return argon2id({
      password,
      salt: randomBytes(16),
      parallelism: 1,
      iterations: 2,
      memorySize: this.memorySize,
      hashLength: 32,
      outputType: 'encoded',
    });
  }

  verify(password: string, hash: string): Promise<boolean> {
    if (!hash.startsWith('$argon2')) return Promise.resolve(false);
    return argon2Verify({ password, hash }).catch(() => false);
  }
}
