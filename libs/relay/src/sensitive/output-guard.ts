/**
 * The output side of the sensitive-word check (`StopOnSensitiveEnabled`): a stream is watched as
 * it passes and stopped at the first word. `StreamCacheQueueLength` events are held back before
 * they go to the client, so a word found within that window never reaches it (0: nothing held,
 * the word's last piece is withheld but earlier pieces may have gone — one-api's and new-api's
 * trade-off: a longer queue detects more surely, the answer arrives more jerkily).
 */
import { StringDecoder } from 'node:string_decoder';
import { completionTextOfJson } from '../openai/usage-reader';
import type { SensitiveMatcher, SensitiveScanner } from './sensitive-matcher';

export class SensitiveStreamGuard<T> {
  private readonly scanner: SensitiveScanner;
  private readonly held: T[] = [];
  /** The word that stopped the stream. */
  hit: string | undefined;

  constructor(
    matcher: SensitiveMatcher,
    private readonly queueLength: number,
  ) {
    this.scanner = matcher.scanner();
  }

  /** One output unit and its text; what may go to the client now (nothing after a hit). */
  push(unit: T, text: string): T[] {
    if (this.hit !== undefined) return [];
    const word = this.scanner.feed(text);
    if (word !== undefined) {
      this.hit = word;
      this.held.length = 0; // the held events (the word's pieces among them) never go out
      return [];
    }
    this.held.push(unit);
    return this.held.length > this.queueLength
      ? this.held.splice(0, this.held.length - this.queueLength)
      : [];
  }

  /** At the end of a clean stream: what is still held. */
  flush(): T[] {
    return this.hit === undefined ? this.held.splice(0) : [];
  }
}

const DATA = 'data:';

/** The completion text of one SSE event of the OpenAI wire ('' for [DONE] and non-JSON data). */
function eventText(event: string): string {
  let text = '';
  for (const line of event.split('\n')) {
    if (!line.startsWith(DATA)) continue;
    const payload = line.slice(DATA.length).trim();
    if (payload === '' || payload === '[DONE]' || payload[0] !== '{') continue;
    try {
      text += completionTextOfJson(JSON.parse(payload) as unknown);
    } catch {
      // not JSON: nothing to read
    }
  }
  return text;
}

/**
 * The pass-through's guard: raw SSE bytes in, whole events out (an event ends at a blank line),
 * each event's text fed to the guard. Only built when the output check is on.
 */
export class SensitiveSseFilter {
  private readonly guard: SensitiveStreamGuard<string>;
  private pending = '';
  /** A character split over two chunks is decoded whole. */
  private readonly decoder = new StringDecoder('utf8');

  constructor(matcher: SensitiveMatcher, queueLength: number) {
    this.guard = new SensitiveStreamGuard(matcher, queueLength);
  }

  get hit(): string | undefined {
    return this.guard.hit;
  }

  /** The bytes that may go to the client now. */
  push(chunk: Buffer): string {
    if (this.guard.hit !== undefined) return '';
    this.pending += this.decoder.write(chunk);
    let out = '';
    for (let end = this.eventEnd(); end !== -1; end = this.eventEnd()) {
      const event = this.pending.slice(0, end);
      this.pending = this.pending.slice(end);
      out += this.guard.push(event, eventText(event)).join('');
      if (this.guard.hit !== undefined) return out;
    }
    return out;
  }

  /** What is left at the end of a clean stream (held events and an unfinished one). */
  end(): string {
    if (this.guard.hit !== undefined) return '';
    const rest = this.pending + this.decoder.end();
    this.pending = '';
    const last = rest === '' ? [] : this.guard.push(rest, eventText(rest));
    return this.guard.hit !== undefined ? '' : last.join('') + this.guard.flush().join('');
  }

  /** Index just past the first blank line (\n\n or \r\n\r\n), or -1. */
  private eventEnd(): number {
    const lf = this.pending.indexOf('\n\n');
    const crlf = this.pending.indexOf('\r\n\r\n');
    if (lf === -1 && crlf === -1) return -1;
    if (crlf !== -1 && (lf === -1 || crlf < lf)) return crlf + 4;
    return lf + 2;
  }
}
