/**
 * Google's streamGenerateContent without `alt=sse`: one JSON array sent progressively, each element
 * a GenerateContentResponse. The relay writes every Gemini stream as `alt=sse` events (the upstream
 * is always asked for them, so usage reading and the reservation cut stay the same); this re-frames
 * those events, whole or split anywhere, into the array. Event payloads are not parsed: each one is
 * already a JSON object.
 */
import { eventData, SseEventSplitter } from '../../openai/output-meter';
import { googleStatus } from './gemini-errors';

export const GEMINI_ARRAY_CONTENT_TYPE = 'application/json; charset=UTF-8';

/** Google's separators: the first element after `[`, the next ones after a comma line. */
const OPEN = '[';
const BETWEEN = '\n,\r\n';
const CLOSE = '\n]';
const EMPTY = '[]';

/** The last element of an array whose upstream broke off: Google ends a failed stream so. */
const BROKEN_STATUS = 500;
const BROKEN_ELEMENT = JSON.stringify({
  error: {
    code: BROKEN_STATUS,
    message: 'The upstream stream broke off before the answer was complete.',
    status: googleStatus(BROKEN_STATUS),
  },
});

export class GeminiArrayStream {
  readonly contentType = GEMINI_ARRAY_CONTENT_TYPE;
  private readonly splitter = new SseEventSplitter();
  private elements = 0;

  /** The array text for the next SSE bytes (events split across pushes are held back). */
  push(sse: string | Buffer): string {
    const bytes = typeof sse === 'string' ? Buffer.from(sse, 'utf8') : sse;
    let out = '';
    for (const event of this.splitter.push(bytes)) out += this.element(event);
    return out;
  }

  /**
   * Closes the array. A last event without its blank line goes when its data is whole JSON (a
   * broken stream's is cut: dropped); `broken` adds Google's error element so that a client can
   * tell a failed answer from a complete one.
   */
  end(broken: boolean): string {
    const rest = this.splitter.rest();
    let out = rest && !broken && isJson(eventData(rest)) ? this.element(rest) : '';
    if (broken) out += this.separator() + BROKEN_ELEMENT;
    return out + (this.elements === 0 ? EMPTY : CLOSE);
  }

  private element(event: Buffer): string {
    const data = eventData(event).trim();
    return data === '' ? '' : this.separator() + data;
  }

  private separator(): string {
    return this.elements++ === 0 ? OPEN : BETWEEN;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
