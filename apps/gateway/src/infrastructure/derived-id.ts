import { createHash } from 'node:crypto';

/**
 * A uuid-shaped id derived from a source id and an index (name-based, like uuid v5 but SHA-256):
 * the same command or request always yields the same event ids, so a retried append is refused as
 * a duplicate instead of being recorded twice.
 */
export function derivedId(source: string, index = 0): string {
  const hex = createHash('sha256').update(`${source}#${index}`).digest('hex');
  // Version nibble 8 (custom) and the RFC 4122 variant, so it parses as a uuid everywhere.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
