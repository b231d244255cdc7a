import { SecretBox, sha256Hex } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('server-secret');

  it('seals to ciphertext that does not contain the secret and opens it again', () => {
    const sealed = box.seal('smtp-password-123');
    expect(sealed.cipher).not.toContain('smtp-password-123');
    expect(box.open(sealed)).toBe('smtp-password-123');
  });

  it('uses a fresh IV each time but the same keyed hash', () => {
    const a = box.seal('same');
    const b = box.seal('same');
    expect(a.cipher).not.toBe(b.cipher);
    expect(a.hash).toBe(b.hash);
    expect(a.hash).not.toBe(new SecretBox('other-secret').keyedHash('same'));
  });

  it('refuses a tampered ciphertext or another server secret', () => {
    const sealed = box.seal('value');
    const [iv, tag, body] = sealed.cipher.split('.');
    const flipped = `${iv}.${tag}.${body!.startsWith('A') ? 'B' : 'A'}${body!.slice(1)}`;
    expect(() => box.open({ ...sealed, cipher: flipped })).toThrow();
    expect(() => new SecretBox('other').open(sealed)).toThrow();
  });

  it('hashes lookup tokens with plain SHA-256', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
