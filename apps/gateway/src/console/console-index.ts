import { existsSync, readFileSync } from 'node:fs';

export type IndexEncoding = 'br' | 'gzip' | 'identity';

/** index.html as built, with its precompressed copies when the build wrote them. */
export interface ConsoleIndex {
  readonly variants: ReadonlyMap<IndexEncoding, Buffer>;
}

export function loadConsoleIndex(indexFile: string): ConsoleIndex {
  const variants = new Map<IndexEncoding, Buffer>([['identity', readFileSync(indexFile)]]);
  const copies: [IndexEncoding, string][] = [
    ['br', `${indexFile}.br`],
    ['gzip', `${indexFile}.gz`],
  ];
  for (const [encoding, file] of copies)
    if (existsSync(file)) variants.set(encoding, readFileSync(file));
  return { variants };
}

/** The encodings an Accept-Encoding header allows (q above 0), lower-cased. */
function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}

/** Brotli, then gzip, then the file itself: the smallest copy the client can read. */
export function pickIndexVariant(
  index: ConsoleIndex,
  acceptEncoding: string | string[] | undefined,
): { encoding: IndexEncoding; body: Buffer } {
  const accepted = acceptedEncodings(acceptEncoding);
  for (const encoding of ['br', 'gzip'] as const) {
    const body = index.variants.get(encoding);
    if (body && (accepted.has(encoding) || accepted.has('*'))) return { encoding, body };
  }
  return { encoding: 'identity', body: index.variants.get('identity') ?? Buffer.alloc(0) };
}
