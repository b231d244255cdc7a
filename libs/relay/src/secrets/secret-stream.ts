import type { FormSearch } from './secret-search';

const EMPTY = Buffer.alloc(0);

/**
 * Scrubs a stream forwarded byte for byte (SSE, NDJSON) as it passes. A secret may be split by a
 * chunk boundary: the end of a chunk that is the beginning of a secret's form is held back and
 * put before the next chunk. Nothing is held when a chunk ends otherwise (an SSE event ends with
 * a blank line), so the stream is not delayed; a chunk with no form in it passes as it is.
 */
export class SecretStream {
  private held: Buffer = EMPTY;

  constructor(private readonly search: FormSearch) {}

  /** The bytes of `chunk` (after what was held) that can go now, masked. */
  push(chunk: Buffer): Buffer {
    if (this.search.forms.length === 0) return chunk;
    const data = this.search.mask(this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk);
    const open = this.search.openTailLength(data);
    if (open === 0) {
      this.held = EMPTY;
      return data;
    }
    // A copy: the held bytes outlive the chunk they came in.
    this.held = Buffer.from(data.subarray(data.length - open));
    return data.subarray(0, data.length - open);
  }

  /** What is still held when the stream ends (a cut secret's beginning masked). */
  end(): Buffer {
    const rest = this.held;
    this.held = EMPTY;
    return rest.length > 0 ? this.search.maskCutTail(rest) : EMPTY;
  }
}
