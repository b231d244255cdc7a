/**
 * An SSE answer passing from an OpenAI-wire upstream to an OpenAI client: its bytes go as they
 * arrive, the channel's key masked first; the reader watches them for usage, the meter for an
 * upstream writing past its reservation (cut, ended cleanly, billed for what was delivered), the
 * sensitive-word filter (when on) for a word to stop at, and strict durability holds the final
 * event until the receipt is committed.
 */
import {
  channelScrubber,
  completionTextOfJson,
  countText,
  cutEnding,
  eventData,
  OutputMeter,
  parseJsonObject,
  type SecretStream,
  SensitiveSseFilter,
  SseUsageReader,
  StreamTokenCounter,
  type UpstreamUsage,
} from '@tollgate/relay';
import { FinalEventHold } from './final-event-hold';
import { type CountedOutput, MeteredSse } from './metered-sse';
import {
  type Answered,
  answerContext,
  honouredCeiling,
  outputAllowance,
  type Prepared,
} from './relay-call';
import type { RelayedStream } from './client-stream';
import type { RoutedChannel } from './relay-ports';

const NO_OUTPUT: CountedOutput = { text: '', tokens: 0 };

/** The OpenAI endpoints that have a ceiling (chat, completions, responses) as their wire. */
export function ceilingWireOf(endpoint: string): 'chat' | 'completions' | 'responses' {
  return endpoint === 'completions' || endpoint === 'responses' ? endpoint : 'chat';
}

/**
 * How a stream stopped on a sensitive word ends: chat and completions with [DONE] (one-api and
 * new-api send it and stop); the Responses API has no [DONE], its stream just ends.
 */
const streamStopped = (endpoint: string): string =>
  endpoint === 'responses' ? '' : 'data: [DONE]\n\n';

export class PassThroughStream implements RelayedStream {
  /** What the stream still owes the client after the upstream ended (set by `end`). */
  tail = '';
  private readonly reader = new SseUsageReader(() => Date.now());
  /** Off (the default): the bytes pass untouched, nothing is parsed. */
  private readonly guard: SensitiveSseFilter | undefined;
  private readonly meter: OutputMeter;
  private readonly metered: MeteredSse;
  private readonly hold: FinalEventHold | undefined;
  /** The channel's key masked first: nothing after it sees the upstream's bytes unmasked. */
  private readonly secrets: SecretStream;
  /** The text delivered before counting began: with the metered part, what a cut is billed for. */
  private before = '';
  private counter: StreamTokenCounter | undefined;
  /**
   * The completion's tokens as counted (`before`, then each event), when counting began between
   * two events: every event from there is counted whole, and the reader keeps none of them.
   * Undefined otherwise: an event begun before counting is only whole in the reader's kept
   * payloads, which count the completion then.
   */
  private countedTotal: number | undefined;

  constructor(
    private readonly p: Prepared,
    channel: RoutedChannel,
    strict: boolean,
  ) {
    const output = p.settings.sensitive.output;
    this.guard = output
      ? new SensitiveSseFilter(output, p.settings.sensitive.streamQueue)
      : undefined;
    this.meter = new OutputMeter(outputAllowance(p));
    this.metered = new MeteredSse(
      this.meter,
      (bytes, exact) => this.counted(bytes, exact),
      (atBoundary) => this.startCounting(atBoundary),
    );
    this.hold = strict ? new FinalEventHold() : undefined;
    this.secrets = channelScrubber(channel).stream();
  }

  /** The part of an upstream chunk the client may have now. */
  push(chunk: Buffer): Buffer {
    const out = this.pass(this.secrets.push(chunk));
    return this.hold ? this.hold.push(out) : out;
  }

  /** True once the upstream must be stopped: cut at the reservation, or a sensitive word. */
  get stopping(): boolean {
    return this.metered.cut || this.guard?.hit !== undefined;
  }

  /**
   * The upstream ended (`stopped`: on purpose). Sets `tail`, what the stream still owes in order:
   * what the scrubber held back, an event the upstream left unfinished, output held past the
   * reservation when the upstream's usage shows it kept to its ceiling (else the stream ends cut
   * where the reservation did), the words the guard held back, what strict durability held, then
   * the ending. The answer, as it is billed.
   */
  end(stopped: boolean, channel: RoutedChannel, upstreamModel: string): Answered {
    const { p, metered, guard, hold } = this;
    const endpoint = p.call.endpoint;
    const sensitiveStop = stopped && !metered.cut;
    let owed = stopped ? '' : this.rest();
    const outcome = this.reader.end();
    if (metered.holding && !stopped) {
      if (outcome.usage && honouredCeiling(p, outcome.usage)) {
        const held = metered.releaseHeld();
        owed += guard ? guard.push(held) : held.toString('utf8');
      } else metered.cut = true;
    }
    if (guard && !sensitiveStop) owed += guard.end();
    if (hold) owed = hold.push(Buffer.from(owed)).toString('utf8') + hold.rest().toString('utf8');
    if (metered.cut)
      owed += cutEnding(ceilingWireOf(endpoint), answerContext(p), this.meter.tokens);
    else if (sensitiveStop) owed += streamStopped(endpoint);
    this.tail = owed;
    const reported = metered.cut ? undefined : outcome.usage;
    return {
      prepared: p,
      channel,
      upstreamModel,
      usage: reported ?? this.countedUsage(),
      estimated: reported === undefined,
      firstAt: outcome.firstChunkAt ?? null,
      stream: true,
      cut: metered.cut,
    };
  }

  private pass(chunk: Buffer): Buffer {
    const allowed = this.metered.push(chunk);
    this.reader.push(chunk);
    return this.guard ? Buffer.from(this.guard.push(allowed)) : allowed;
  }

  /** What the scrubber held back (a key's beginning split by a chunk), then an unfinished event. */
  private rest(): string {
    let owed = this.pass(this.secrets.end()).toString('utf8');
    const rest = this.metered.rest();
    owed += this.guard ? this.guard.push(rest) : rest.toString('utf8');
    return owed;
  }

  /** No usage reported (or a cut): counted here, a cut on what was delivered. */
  private countedUsage(): UpstreamUsage {
    return {
      promptTokens: this.p.promptEstimate,
      completionTokens: this.metered.cut
        ? countText(this.before + this.metered.deliveredText)
        : (this.countedTotal ?? this.reader.countCompletionLocally()),
      cachedTokens: 0,
    };
  }

  private counted(bytes: Buffer, exact: boolean): CountedOutput {
    if (!exact || !this.counter) return NO_OUTPUT;
    const text = completionTextOfJson(parseJsonObject(eventData(bytes)));
    const tokens = this.counter.add(text);
    if (this.countedTotal !== undefined) this.countedTotal += tokens;
    return { text, tokens };
  }

  private startCounting(atBoundary: boolean): number {
    this.before = this.reader.completionText();
    this.counter = new StreamTokenCounter(this.before);
    if (atBoundary) {
      this.reader.stopKeeping();
      this.countedTotal = this.counter.startTokens;
    }
    return this.counter.startTokens;
  }
}
