/**
 * A native stream (the client speaks the channel's protocol): its bytes pass (whole events once
 * the meter counts), its events are read in the protocol for usage; cut at the reservation with
 * the protocol's own ending.
 */
import {
  AnthropicBlocks,
  type ChatAdaptor,
  channelScrubber,
  completionTextOfJson,
  type ConvertContext,
  countText,
  cutEnding,
  type FramedEvent,
  type JsonObject,
  type NativeWire,
  OutputMeter,
  type SecretStream,
  SseFramer,
  type StreamConverter,
  StreamTokenCounter,
} from '@tollgate/relay';
import { eventsOf, KeptText } from './converted-output';
import { FinalEventHold } from './final-event-hold';
import { type CountedOutput, MeteredSse } from './metered-sse';
import { type Answered, honouredCeiling, outputAllowance, type Prepared } from './relay-call';
import type { RelayedStream } from './client-stream';
import type { RoutedChannel } from './relay-ports';

const NO_OUTPUT: CountedOutput = { text: '', tokens: 0 };

export class NativeStream implements RelayedStream {
  /** When the first chunk came. */
  firstAt: number | null = null;
  /** What the stream still owes the client after the upstream ended (set by `end`). */
  tail = '';
  private readonly framer = new SseFramer();
  private readonly converter: StreamConverter;
  /** Everything the upstream sent (the count when it reports no usage). */
  private readonly kept = new KeptText();
  private readonly blocks: AnthropicBlocks | undefined;
  private readonly meter: OutputMeter;
  private readonly metered: MeteredSse;
  private readonly hold: FinalEventHold | undefined;
  private readonly secrets: SecretStream;
  private counter: StreamTokenCounter | undefined;
  /** What reached the client before counting began: with the metered part, what a cut is billed for. */
  private deliveredBefore = '';

  constructor(
    private readonly p: Prepared,
    channel: RoutedChannel,
    adaptor: ChatAdaptor,
    private readonly native: NativeWire,
    private readonly ctx: ConvertContext,
    strict: boolean,
  ) {
    this.converter = adaptor.stream(ctx);
    this.blocks = native.kind === 'anthropic' ? new AnthropicBlocks() : undefined;
    this.meter = new OutputMeter(outputAllowance(p));
    this.metered = new MeteredSse(
      this.meter,
      (bytes, exact) => this.counted(bytes, exact),
      () => this.startCounting(),
    );
    this.hold = strict ? new FinalEventHold() : undefined;
    this.secrets = channelScrubber(channel).stream();
  }

  /** The part of an upstream chunk the client may have now. */
  push(chunk: Buffer): Buffer {
    this.firstAt ??= Date.now();
    const out = this.pass(this.secrets.push(chunk));
    return this.hold ? this.hold.push(out) : out;
  }

  /** Cut at the reservation: the upstream is stopped. */
  get stopping(): boolean {
    return this.metered.cut;
  }

  /**
   * The upstream ended (`stopped`: cut on purpose). Sets `tail`: what the scrubber held back (the
   * beginning of a key, split by a chunk boundary), an event the upstream left unfinished, output
   * held past the reservation when the upstream's usage shows it kept to its ceiling (else cut),
   * what strict durability held, then a cut's ending. The answer, as it is billed.
   */
  end(stopped: boolean, channel: RoutedChannel, upstreamModel: string): Answered {
    const { p, metered, hold } = this;
    let owed = stopped
      ? Buffer.alloc(0)
      : Buffer.concat([this.pass(this.secrets.end()), metered.rest()]);
    if (!stopped) this.keep(this.framer.end());
    const reported = metered.cut ? undefined : this.converter.usage();
    if (metered.holding) {
      if (reported && honouredCeiling(p, reported))
        owed = Buffer.concat([owed, metered.releaseHeld()]);
      else metered.cut = true;
    }
    if (hold) owed = Buffer.concat([hold.push(owed), hold.rest()]);
    // No usage in the stream (a cut upstream): count what was produced, as the other paths do.
    const usage = (!metered.cut && reported) || {
      promptTokens: p.promptEstimate,
      completionTokens: countText(
        metered.cut ? this.deliveredBefore + metered.deliveredText : this.kept.text,
      ),
      cachedTokens: 0,
    };
    this.tail = owed.toString('utf8');
    if (metered.cut) {
      const unclosed = this.blocks?.unclosed;
      this.tail += cutEnding(this.native.kind, this.ctx, usage.completionTokens, unclosed);
    }
    return {
      prepared: p,
      channel,
      upstreamModel,
      usage,
      estimated: usage !== reported,
      firstAt: this.firstAt,
      stream: true,
      cut: metered.cut,
    };
  }

  private pass(chunk: Buffer): Buffer {
    const counting = this.meter.counting;
    const allowed = this.metered.push(chunk);
    // Before counting, whole chunks went out: their blocks are followed here.
    if (!counting && !this.meter.counting) this.blocks?.observe(chunk);
    return allowed;
  }

  private keep(events: FramedEvent[]): JsonObject[] {
    const chunks = eventsOf(events, this.converter);
    chunks.forEach((chunk) => this.kept.add(chunk));
    return chunks;
  }

  private counted(bytes: Buffer, exact: boolean): CountedOutput {
    const chunks = this.keep(this.framer.push(bytes));
    if (!exact || !this.counter) return NO_OUTPUT;
    this.blocks?.observe(bytes);
    const text = chunks.map(completionTextOfJson).join('');
    return { text, tokens: this.counter.add(text) };
  }

  private startCounting(): number {
    this.deliveredBefore = this.kept.text;
    this.counter = new StreamTokenCounter(this.deliveredBefore);
    return this.counter.startTokens;
  }
}
