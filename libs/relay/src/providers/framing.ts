/**
 * Splits a provider's streamed bytes into events: SSE (`event:` + `data:` lines, a blank line ends
 * an event) and NDJSON (one JSON object a line). Chunks may cut anywhere, even inside a UTF-8
 * character: bytes are kept until a line ends.
 */
import type { JsonObject } from '../openai/request-body';

export interface FramedEvent {
  /** The SSE `event:` name; undefined for NDJSON and for SSE events without one. */
  readonly name: string | undefined;
  /** The `data:` payload (or the NDJSON line) as text. */
  readonly data: string;
}

abstract class LineSplitter {
  private pending: Buffer | undefined;

  /** Feeds bytes; returns the events completed by them. */
  push(chunk: Buffer): FramedEvent[] {
    const out: FramedEvent[] = [];
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let start = 0;
    for (let nl = data.indexOf(0x0a, start); nl !== -1; nl = data.indexOf(0x0a, start)) {
      let end = nl;
      if (end > start && data[end - 1] === 0x0d) end -= 1;
      this.line(data.toString('utf8', start, end), out);
      start = nl + 1;
    }
    this.pending = start < data.length ? Buffer.from(data.subarray(start)) : undefined;
    return out;
  }

  /** After the last chunk: the event a missing final newline left open. */
  end(): FramedEvent[] {
    const out: FramedEvent[] = [];
    if (this.pending) {
      this.line(this.pending.toString('utf8'), out);
      this.pending = undefined;
    }
    this.flush(out);
    return out;
  }

  protected abstract line(text: string, out: FramedEvent[]): void;
  protected flush(_out: FramedEvent[]): void {}
}

export class SseFramer extends LineSplitter {
  private name: string | undefined;
  private data: string[] = [];

  protected line(text: string, out: FramedEvent[]): void {
    if (text === '') return this.flush(out);
    if (text.startsWith(':')) return; // comment / keep-alive
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.name = value;
    else if (field === 'data') this.data.push(value);
  }

  protected override flush(out: FramedEvent[]): void {
    if (this.data.length > 0) out.push({ name: this.name, data: this.data.join('\n') });
    this.name = undefined;
    this.data = [];
  }
}

export class NdjsonFramer extends LineSplitter {
  protected line(text: string, out: FramedEvent[]): void {
    if (text.trim() !== '') out.push({ name: undefined, data: text });
  }
}

/** A framed event's data as a JSON object; undefined for `[DONE]` and anything not an object. */
export function eventObject(event: FramedEvent): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(event.data);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as JsonObject)
      : undefined;
  } catch {
    return undefined;
  }
}
