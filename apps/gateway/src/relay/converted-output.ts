/** A converted stream's chunks: what is delivered, held past the reservation, or cut. */
import {
  completionTextOfJson,
  type ConvertContext,
  eventObject,
  type FramedEvent,
  type JsonObject,
  type OutputMeter,
  type Placement,
  type StreamConverter,
  StreamTokenCounter,
} from '@tollgate/relay';

/** Text kept for a local count when a converted stream reports no usage (4 MB as the SSE reader). */
const KEEP_TEXT_CHARS = 4 * 1024 * 1024;

/**
 * A converted stream's output against what its reservation covers (OutputMeter): counted once its
 * bytes could pass the allowance (after what was delivered before), chunks past it held back.
 */
export class ConvertedOutput {
  cut = false;
  private counter: StreamTokenCounter | undefined;
  private readonly held: JsonObject[] = [];

  constructor(
    private readonly meter: OutputMeter,
    /** What was delivered (kept): a cut stream is billed for it. */
    private readonly kept: KeptText,
  ) {}

  get holding(): boolean {
    return this.held.length > 0;
  }

  place(chunk: JsonObject): Placement {
    if (this.cut) return 'cut';
    const placement = this.placementOf(completionTextOfJson(chunk));
    if (placement === 'cut') {
      this.cut = true;
      this.held.length = 0;
    } else if (placement === 'hold') this.held.push(chunk);
    else this.kept.add(chunk);
    return placement;
  }

  /** The held chunks, now paid for: delivered. */
  releaseHeld(): JsonObject[] {
    const chunks = this.held.splice(0);
    chunks.forEach((chunk) => this.kept.add(chunk));
    return chunks;
  }

  private placementOf(text: string): Placement {
    if (!this.meter.counting) {
      if (text === '' || this.meter.withinBytes(Buffer.byteLength(text, 'utf8'))) return 'deliver';
      this.counter = new StreamTokenCounter(this.kept.text);
      this.meter.startCounting(this.counter.startTokens);
    }
    return this.meter.place(this.counter!.add(text));
  }
}

/** The completion text of converted chunks, kept (bounded) to count locally when no usage comes. */
export class KeptText {
  text = '';

  add(chunk: JsonObject): void {
    if (this.text.length < KEEP_TEXT_CHARS) this.text += completionTextOfJson(chunk);
  }
}

/** Feeds framed events to the converter; the OpenAI chunks they produce. */
export function eventsOf(events: FramedEvent[], converter: StreamConverter): JsonObject[] {
  const out: JsonObject[] = [];
  for (const event of events) {
    const data = eventObject(event);
    if (data) out.push(...converter.event(data, event.name));
  }
  return out;
}

/** The chunk that tells a client its answer stopped at the output ceiling. */
export function lengthFinish(ctx: ConvertContext): JsonObject {
  return {
    id: ctx.id,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, delta: {}, finish_reason: 'length' }],
  };
}
