import { endsAtEventBoundary, type OutputMeter, SseEventSplitter } from '@tollgate/relay';

const NOTHING = Buffer.alloc(0);

/**
 * Events as one Buffer: a view over them when they lie end to end in one buffer, as the events of
 * one chunk do (nothing copied), else their concatenation.
 */
function joined(events: readonly Buffer[]): Buffer {
  const first = events[0]!;
  let end = first.byteOffset + first.length;
  for (let i = 1; i < events.length; i++) {
    const event = events[i]!;
    if (event.buffer !== first.buffer || event.byteOffset !== end) return Buffer.concat(events);
    end += event.length;
  }
  return Buffer.from(first.buffer, first.byteOffset, end - first.byteOffset);
}

/** What `count` makes of a piece of the upstream's bytes once counting: its output text and tokens. */
export interface CountedOutput {
  readonly text: string;
  readonly tokens: number;
}

/**
 * The bytes of a streamed answer the client may have, as the upstream sends them: whole chunks
 * while the meter's byte bound holds (nothing parsed), whole events once exact counting started.
 * Events past the reservation are held back (OutputMeter.place) until the upstream's own usage
 * shows they were paid for (`releaseHeld`); past the margin the stream is `cut`. `count` is handed
 * every piece of the upstream's bytes in order — chunks (`exact` false: its answer is ignored),
 * then events — and may feed a converter with them.
 */
export class MeteredSse {
  cut = false;
  /** The output text of what went to the client since counting started (a cut is billed for it). */
  deliveredText = '';
  private splitter: SseEventSplitter | undefined;
  private readonly held: { bytes: Buffer; text: string }[] = [];
  /** Whether the bytes forwarded so far end between two events. */
  private atBoundary = true;
  /** The first events after the switch finish one begun before it: they go out whatever they hold. */
  private finishing = false;

  constructor(
    private readonly meter: OutputMeter,
    private readonly count: (bytes: Buffer, exact: boolean) => CountedOutput,
    /** Told whether the bytes so far end between two events (no event begun before counting). */
    private readonly countedSoFar: (atBoundary: boolean) => number,
  ) {}

  /** True while events wait for the upstream's usage. */
  get holding(): boolean {
    return this.held.length > 0;
  }

  push(chunk: Buffer): Buffer {
    if (this.cut) return NOTHING;
    if (!this.splitter) {
      if (this.meter.withinBytes(chunk.length)) {
        this.count(chunk, false);
        if (chunk.length > 0) this.atBoundary = endsAtEventBoundary(chunk);
        return chunk;
      }
      this.meter.startCounting(this.countedSoFar(this.atBoundary));
      this.splitter = new SseEventSplitter();
      this.finishing = !this.atBoundary;
    }
    const out: Buffer[] = [];
    for (const event of this.splitter.push(chunk)) {
      if (!this.place(event, out)) break;
    }
    if (out.length === 0) return NOTHING;
    return out.length === 1 ? out[0]! : joined(out);
  }

  /** When the upstream ended: an unfinished event held back goes the way the others went. */
  rest(): Buffer {
    const rest = this.cut ? undefined : this.splitter?.rest();
    if (!rest) return NOTHING;
    const out: Buffer[] = [];
    this.place(rest, out);
    return out.length > 0 ? out[0]! : NOTHING;
  }

  /** The held events, now paid for: they go to the client. */
  releaseHeld(): Buffer {
    const bytes = this.held.map((event) => event.bytes);
    for (const event of this.held) this.deliveredText += event.text;
    this.held.length = 0;
    return bytes.length > 0 ? Buffer.concat(bytes) : NOTHING;
  }

  /** Counts one event and sends it on, holds it or cuts; false once cut. */
  private place(event: Buffer, out: Buffer[]): boolean {
    const { text, tokens } = this.count(event, true);
    const placement = this.finishing ? this.meter.deliver(tokens) : this.meter.place(tokens);
    this.finishing = false;
    if (placement === 'cut') {
      this.cut = true;
      this.held.length = 0;
      return false;
    }
    if (placement === 'hold') this.held.push({ bytes: event, text });
    else {
      this.deliveredText += text;
      out.push(event);
    }
    return true;
  }
}
