/**
 * A streamed answer counted against the output its reservation covers (docs/relay.md "When the
 * upstream does not honour the ceiling"): an upstream that writes past the ceiling is cut, the
 * client's stream ended cleanly, and what was delivered is billed.
 *
 * Counting is lazy: no tokenizer yields more tokens than the UTF-8 bytes of its text, and a stream's
 * raw bytes are more than its text's, so while the raw bytes stay within the limit nothing is
 * parsed. Past that, every event is counted with the local tokenizer (o200k_base).
 */

/**
 * How far past the reservation a stream's output may be held back, an eighth and 8 tokens: the
 * local tokenizer is not the upstream's, and an honest upstream stopping at its own count of the
 * ceiling must not lose its last tokens to a cut.
 */
export function holdMargin(allowance: number): number {
  return Math.ceil(allowance / 8) + 8;
}

/**
 * Where a stream's next output goes: to the client while the reservation covers it; past that,
 * held back until the upstream's own usage shows it was paid for (once holding, everything after
 * is held too, to keep the order); past the margin, nowhere: the stream is cut.
 */
export type Placement = 'deliver' | 'hold' | 'cut';

export class OutputMeter {
  private readonly limit: number;
  private readonly holdLimit: number;
  private bytes = 0;
  private counted: number | undefined;
  private holding = false;

  /** `allowance`: output tokens the reservation covers (all choices together). */
  constructor(allowance: number) {
    this.limit = Number.isSafeInteger(allowance) ? allowance : Infinity;
    this.holdLimit = this.limit + holdMargin(this.limit);
  }

  /** True once exact counting started (the raw bytes passed the limit). */
  get counting(): boolean {
    return this.counted !== undefined;
  }

  /** Output tokens counted so far, held ones included (0 while only bytes are watched). */
  get tokens(): number {
    return this.counted ?? 0;
  }

  /** Adds raw bytes; true while they cannot hold more than the limit (nothing to count yet). */
  withinBytes(bytes: number): boolean {
    if (this.counted !== undefined) return false;
    this.bytes += bytes;
    return this.bytes <= this.limit;
  }

  /** Exact counting from here on, starting at what was delivered before. */
  startCounting(tokensSoFar: number): void {
    this.counted ??= tokensSoFar;
  }

  /** Where `tokens` more output go (counted unless cut). */
  place(tokens: number): Placement {
    const total = (this.counted ?? 0) + tokens;
    if (total > this.holdLimit) return 'cut';
    this.counted = total;
    if (!this.holding && total <= this.limit) return 'deliver';
    this.holding = true;
    return 'hold';
  }

  /** Output that must go whatever it holds (the rest of an event begun before counting). */
  deliver(tokens: number): Placement {
    this.counted = (this.counted ?? 0) + tokens;
    return 'deliver';
  }
}

/**
 * Splits SSE bytes into whole events (each with its blank-line terminator), holding an unfinished
 * one back: a metered stream forwards whole events only, so a cut never leaves half an event.
 */
export class SseEventSplitter {
  private held: Buffer | undefined;

  push(chunk: Buffer): Buffer[] {
    const data = this.held ? Buffer.concat([this.held, chunk]) : chunk;
    const events: Buffer[] = [];
    let start = 0;
    for (let end = eventEnd(data, start); end !== -1; end = eventEnd(data, start)) {
      events.push(data.subarray(start, end));
      start = end;
    }
    this.held = start < data.length ? Buffer.from(data.subarray(start)) : undefined;
    return events;
  }

  /** What is held back (an event the upstream never finished). */
  rest(): Buffer | undefined {
    const held = this.held;
    this.held = undefined;
    return held;
  }
}

/** The offset just past the first blank line at or after `from` (`\n\n`, `\n\r\n`), or -1. */
function eventEnd(data: Buffer, from: number): number {
  for (let i = data.indexOf(0x0a, from); i !== -1; i = data.indexOf(0x0a, i + 1)) {
    if (data[i + 1] === 0x0a) return i + 2;
    if (data[i + 1] === 0x0d && data[i + 2] === 0x0a) return i + 3;
  }
  return -1;
}

/** True when `bytes` end an SSE event (a blank line), so what follows starts a new one. */
export function endsAtEventBoundary(bytes: Buffer): boolean {
  const n = bytes.length;
  if (n === 0) return true;
  return bytes[n - 1] === 0x0a && (bytes[n - 2] === 0x0a || bytes[n - 3] === 0x0a);
}

const DATA_FIELD = Buffer.from('data:');

/**
 * The `data:` payloads of one SSE event (joined by newlines, as a client reads them). Read from
 * the bytes line by line: one string per payload, no split of the whole event (this runs on every
 * event of a counted stream).
 */
export function eventData(event: Buffer): string {
  let data: string | undefined;
  for (let start = 0; start < event.length;) {
    let end = event.indexOf(0x0a, start);
    if (end === -1) end = event.length;
    const lineEnd = end > start && event[end - 1] === 0x0d ? end - 1 : end;
    if (
      lineEnd - start >= DATA_FIELD.length &&
      event.compare(DATA_FIELD, 0, DATA_FIELD.length, start, start + DATA_FIELD.length) === 0
    ) {
      const from = start + DATA_FIELD.length + (event[start + DATA_FIELD.length] === 0x20 ? 1 : 0);
      const piece = event.toString('utf8', from, lineEnd);
      data = data === undefined ? piece : `${data}\n${piece}`;
    }
    start = end + 1;
  }
  return data ?? '';
}
