/**
 * Attempts that are not a byte pass-through: a converting adaptor between the client's protocol
 * and the channel's (the OpenAI chat body is the hub), and native relays of a non-OpenAI protocol
 * to an upstream that speaks it (Anthropic → Anthropic), whose bytes pass but whose usage is read
 * in that protocol. Off the OpenAI hot path: these parse and build JSON per answer.
 */
import type { ServerResponse } from 'node:http';
import {
  AnthropicBlocks,
  bodyWithCeiling,
  type CeilingWire,
  type ChatAdaptor,
  channelScrubber,
  chunksOfCompletion,
  completionTextOfJson,
  type ConvertContext,
  type ConvertedFailure,
  countText,
  cutEnding,
  eventObject,
  type FramedEvent,
  type JsonObject,
  type NativeWire,
  OutputMeter,
  parseJsonObject,
  type Placement,
  rawWithCeiling,
  type ProviderRequest,
  type RequestContext,
  retryAfterMs,
  SensitiveStreamGuard,
  SseFramer,
  StreamTokenCounter,
  framerFor,
  type StreamConverter,
  upstreamModelName,
  type UpstreamUsage,
} from '@tollgate/relay';
import type { Dispatcher } from 'undici';
import { type AttemptResult, outputAllowance, type Prepared } from './relay-call';
import { ClientStream, pipeUpstream } from './client-stream';
import { FinalEventHold } from './final-event-hold';
import { MeteredSse } from './metered-sse';
import { sendBytes, sendError } from './relay-http';
import { sensitiveAnswer } from './relay-option-checks';
import type { RoutedChannel } from './relay-ports';
import {
  headerText,
  MAX_ERROR_BODY_BYTES,
  MAX_JSON_ANSWER_BYTES,
  networkFailure,
  readAll,
  readBounded,
} from './upstream-io';
import type { UpstreamPools } from './upstream-pools';
import { scrubbedHeader } from './upstream-secrets';

export type Settle = (
  p: Prepared,
  channel: RoutedChannel,
  upstreamModel: string,
  usage: UpstreamUsage,
  estimated: boolean,
  firstAt: number | null,
  stream: boolean,
  how?: { readonly cut?: boolean },
) => Promise<unknown>;

/**
 * Strict durability (BILLING_DURABILITY=strict): `committed` waits for a receipt's commit before
 * an answer's last bytes; false when it failed (the answer was refused instead).
 */
export interface Durability {
  readonly strict: boolean;
  committed(p: Prepared, receipt: Promise<unknown>, res: ServerResponse): Promise<boolean>;
}

/** Text kept for a local count when a converted stream reports no usage (4 MB as the SSE reader). */
const KEEP_TEXT_CHARS = 4 * 1024 * 1024;

const NO_OUTPUT = { text: '', tokens: 0 };

function failedWith(failure: ConvertedFailure): AttemptResult {
  return {
    kind: 'failed',
    failure: { kind: 'http', status: failure.status, ...failure.info },
  };
}

export class ConvertedAttempts {
  constructor(
    private readonly pools: UpstreamPools,
    /** Whether the upstream's usage shows it kept to its ceiling (held output may then go out). */
    private readonly honouredCeiling: (p: Prepared, usage: UpstreamUsage) => boolean,
    private readonly durability: Durability,
    private readonly settle: Settle,
  ) {}

  /** Settles a streamed answer and writes its tail (strict durability: once it is committed). */
  private async endStream(
    p: Prepared,
    channel: RoutedChannel,
    upstreamModel: string,
    ended: { usage: UpstreamUsage; estimated: boolean; firstAt: number | null; cut: boolean },
    out: { res: ServerResponse; client: ClientStream; tail: string; broken: boolean },
  ): Promise<AttemptResult> {
    const { usage, estimated, firstAt, cut } = ended;
    const receipt = this.settle(p, channel, upstreamModel, usage, estimated, firstAt, true, {
      cut,
    });
    if (await this.durable(p, receipt, out.res)) out.client.finish(out.tail, out.broken);
    return { kind: 'answered' };
  }

  /** Strict durability: true once the receipt is committed; batched: true at once. */
  private async durable(p: Prepared, receipt: Promise<unknown>, res: ServerResponse) {
    return !this.durability.strict || (await this.durability.committed(p, receipt, res));
  }

  private context(p: Prepared): ConvertContext {
    return {
      id: `chatcmpl-${p.call.requestId}`,
      model: p.facts.model,
      created: Math.floor(p.call.startedAt / 1000),
    };
  }

  /** Sends; a non-2xx answer becomes the attempt's failure in the OpenAI error fields. */
  private async send(
    request: ProviderRequest,
    adaptor: ChatAdaptor,
  ): Promise<{ answer: Dispatcher.ResponseData } | { failed: AttemptResult }> {
    let answer: Dispatcher.ResponseData;
    try {
      answer = await this.pools.pool(request.origin).request({
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body,
      });
    } catch (error) {
      return { failed: { kind: 'failed', failure: networkFailure(error) } };
    }
    if (answer.statusCode >= 200 && answer.statusCode < 300) return { answer };
    const text = await readBounded(answer.body, MAX_ERROR_BODY_BYTES);
    return {
      failed: {
        kind: 'failed',
        failure: {
          kind: 'http',
          status: answer.statusCode,
          ...adaptor.error(answer.statusCode, text),
        },
        retryAfterMs: retryAfterMs(answer.headers['retry-after'], Date.now()),
      },
    };
  }

  /** The client's protocol differs from the channel's: hub → adaptor → hub → the client's wire. */
  async convert(
    p: Prepared,
    channel: RoutedChannel,
    res: ServerResponse,
    adaptor: ChatAdaptor,
    hub: JsonObject,
  ): Promise<AttemptResult> {
    const { call, facts } = p;
    const endpoint = call.ingress ? 'chat' : call.endpoint;
    const mapped = upstreamModelName(channel, facts.model);
    const rctx = requestContext(p, mapped);
    const ceiling = sentCeiling(p, adaptor, mapped, rctx);
    const bounded = ceiling === undefined ? hub : bodyWithCeiling(hub, 'chat', ceiling, mapped);
    let request: ProviderRequest;
    try {
      request = adaptor.request(endpoint, bounded, channel, mapped, facts.stream, new Date(), rctx);
      // Global pass-through: the client's bytes replace the conversion, before any signing.
      if (rctx.passThroughBody) request = { ...request, body: rctx.passThroughBody };
      if (adaptor.authorize) request = await adaptor.authorize(request, channel, new Date());
    } catch (error) {
      // A channel whose key or base URL cannot make a request (a malformed Bedrock key).
      return { kind: 'failed', failure: networkFailure(error) };
    }
    // The model the provider got (Claude's `-thinking` adapter sends the base model).
    const upstreamModel = request.upstreamModel ?? mapped;
    const sent = await this.send(request, adaptor);
    if ('failed' in sent) return sent.failed;
    const { answer } = sent;
    const ctx = this.context(p);
    // Some providers (Baidu, Tencent) answer a stream request's failure as one JSON body.
    const jsonAnswer = headerText(answer.headers['content-type']).startsWith('application/json');
    if (facts.stream && !jsonAnswer)
      return this.convertStream(p, channel, upstreamModel, adaptor, answer, res, ctx);
    let raw: Buffer;
    try {
      raw = channelScrubber(channel).bytes(await readAll(answer.body, MAX_JSON_ANSWER_BYTES));
    } catch (error) {
      return { kind: 'failed', failure: networkFailure(error) };
    }
    const parsed = parseJsonObject(raw);
    if (!parsed) {
      return failedWith({
        status: 502,
        info: {
          message: 'upstream answer is not JSON',
          type: 'upstream_error',
          code: 'bad_response',
        },
      });
    }
    const converted = adaptor.response(endpoint, parsed, ctx);
    if (!converted.ok) return failedWith(converted.failure);
    const firstByteAt = Date.now();
    let usage: UpstreamUsage | undefined = converted.usage;
    const estimated = usage === undefined;
    usage ??= {
      promptTokens: p.promptEstimate,
      completionTokens: countText(completionTextOfJson(converted.body)),
      cachedTokens: 0,
    };
    const refused = sensitiveAnswer(p, converted.body);
    const receipt = this.settle(
      p,
      channel,
      upstreamModel,
      usage,
      estimated,
      firstByteAt,
      facts.stream,
    );
    if (!(await this.durable(p, receipt, res))) return { kind: 'answered' };
    if (refused) {
      sendError(res, refused, call.requestId, p.client);
      return { kind: 'answered' };
    }
    if (facts.stream) {
      // A provider that ignored `stream`: the whole answer as a stream of one chunk.
      const encoder = p.client.stream(ctx);
      const text = chunksOfCompletion(converted.body, ctx, usage)
        .map((c) => encoder.chunk(c))
        .join('');
      const client = new ClientStream(res, call.requestId);
      client.write(text);
      client.finish(encoder.end(usage), false);
      return { kind: 'answered' };
    }
    const payload = Buffer.from(JSON.stringify(p.client.whole(converted.body, usage, ctx)));
    sendBytes(res, 200, 'application/json', payload, call.requestId);
    return { kind: 'answered' };
  }

  private async convertStream(
    p: Prepared,
    channel: RoutedChannel,
    upstreamModel: string,
    adaptor: ChatAdaptor,
    answer: Dispatcher.ResponseData,
    res: ServerResponse,
    ctx: ConvertContext,
  ): Promise<AttemptResult> {
    const framer = framerFor(adaptor.framing);
    const converter = adaptor.stream(ctx);
    const encoder = p.client.stream(ctx);
    const kept = new KeptText();
    const metered = new ConvertedOutput(new OutputMeter(outputAllowance(p)), kept);
    let firstAt: number | null = null;
    const output = p.settings.sensitive.output;
    // The sensitive-word guard holds encoded chunks back (StreamCacheQueueLength) and stops at a word.
    const guard = output
      ? new SensitiveStreamGuard<string>(output, p.settings.sensitive.streamQueue)
      : undefined;
    const encode = (chunk: JsonObject): string =>
      guard
        ? guard.push(encoder.chunk(chunk), completionTextOfJson(chunk)).join('')
        : encoder.chunk(chunk);
    const toClient = (chunks: JsonObject[]): string => {
      let out = '';
      for (const chunk of chunks) {
        const placement = metered.place(chunk);
        if (placement === 'cut') break;
        if (placement === 'deliver') out += encode(chunk);
      }
      return out;
    };
    const client = new ClientStream(res, p.call.requestId);
    const secrets = channelScrubber(channel).stream();
    const read = await pipeUpstream(
      answer,
      client,
      (chunk) => {
        firstAt ??= Date.now();
        return toClient(eventsOf(framer.push(secrets.push(chunk)), converter));
      },
      () => metered.cut || guard?.hit !== undefined,
    );
    // A failure before anything reached the client is this channel's failure (retry another).
    const failure = read.stopped ? undefined : converter.failure();
    if (failure && !client.started) return failedWith(failure);
    let tail = '';
    if (!read.stopped) {
      // What the scrubber held back (the beginning of a key, split by a chunk boundary) first.
      tail += toClient(eventsOf([...framer.push(secrets.end()), ...framer.end()], converter));
      tail += toClient(converter.end());
    }
    const reported = read.stopped ? undefined : converter.usage();
    // Held past the reservation: out only when the upstream's usage shows it kept to its ceiling.
    if (metered.holding) {
      if (reported && this.honouredCeiling(p, reported))
        tail += metered.releaseHeld().map(encode).join('');
      else metered.cut = true;
    }
    // Cut at the reservation, or stopped on a sensitive word: billed for what was delivered.
    const usage: UpstreamUsage = (!metered.cut && reported) || {
      promptTokens: p.promptEstimate,
      completionTokens: countText(kept.text),
      cachedTokens: 0,
    };
    if (guard && guard.hit === undefined) tail += guard.flush().join('');
    if (metered.cut) tail += encoder.chunk(lengthFinish(ctx));
    tail += encoder.end(usage);
    const ended = { usage, estimated: usage !== reported, firstAt, cut: metered.cut };
    return this.endStream(p, channel, upstreamModel, ended, {
      res,
      client,
      tail,
      broken: read.broken,
    });
  }

  /** The client speaks the channel's protocol: its bytes go, the answer's bytes come back. */
  async native(
    p: Prepared,
    channel: RoutedChannel,
    res: ServerResponse,
    adaptor: ChatAdaptor,
    native: NativeWire,
  ): Promise<AttemptResult> {
    const { call, facts } = p;
    const mapped = upstreamModelName(channel, facts.model);
    let request: ProviderRequest;
    try {
      const rctx = requestContext(p, mapped);
      const ceiling = sentCeiling(p, adaptor, mapped, rctx);
      const sent =
        ceiling === undefined
          ? { raw: call.raw, body: p.body ?? {} }
          : rawWithCeiling(call.raw, p.body ?? {}, native.kind, ceiling, mapped);
      request = native.request(
        sent.raw,
        sent.body,
        channel,
        mapped,
        facts.stream,
        call.clientHeaders ?? {},
        rctx,
      );
    } catch (error) {
      return { kind: 'failed', failure: networkFailure(error) };
    }
    const upstreamModel = request.upstreamModel ?? mapped;
    const sent = await this.send(request, adaptor);
    if ('failed' in sent) return sent.failed;
    const { answer } = sent;
    const ctx = this.context(p);
    const contentType = scrubbedHeader(answer.headers['content-type'], channel);
    if (facts.stream && contentType.includes('text/event-stream'))
      return this.nativeStream(p, channel, upstreamModel, adaptor, native, answer, res, ctx);
    let raw: Buffer;
    try {
      raw = channelScrubber(channel).bytes(await readAll(answer.body, MAX_JSON_ANSWER_BYTES));
    } catch (error) {
      return { kind: 'failed', failure: networkFailure(error) };
    }
    const firstByteAt = Date.now();
    const parsed = parseJsonObject(raw);
    const converted = parsed ? adaptor.response('chat', parsed, ctx) : undefined;
    const reported = converted?.ok ? converted.usage : undefined;
    const usage = reported ?? {
      promptTokens: p.promptEstimate,
      completionTokens: converted?.ok ? countText(completionTextOfJson(converted.body)) : 0,
      cachedTokens: 0,
    };
    const receipt = this.settle(
      p,
      channel,
      upstreamModel,
      usage,
      reported === undefined,
      firstByteAt,
      false,
    );
    if (await this.durable(p, receipt, res))
      sendBytes(res, answer.statusCode, contentType || 'application/json', raw, call.requestId);
    return { kind: 'answered' };
  }

  /**
   * A native stream: its bytes pass (whole events once the meter counts), its events are read in
   * the protocol for usage; cut at the reservation with the protocol's own ending.
   */
  private async nativeStream(
    p: Prepared,
    channel: RoutedChannel,
    upstreamModel: string,
    adaptor: ChatAdaptor,
    native: NativeWire,
    answer: Dispatcher.ResponseData,
    res: ServerResponse,
    ctx: ConvertContext,
  ): Promise<AttemptResult> {
    const framer = new SseFramer();
    const converter = adaptor.stream(ctx);
    let firstAt: number | null = null;
    const client = new ClientStream(res, p.call.requestId);
    // Everything the upstream sent (the count when it reports no usage).
    const kept = new KeptText();
    const blocks = native.kind === 'anthropic' ? new AnthropicBlocks() : undefined;
    const meter = new OutputMeter(outputAllowance(p));
    let counter: StreamTokenCounter | undefined;
    // What reached the client before counting began: with the metered part, what a cut is billed for.
    let deliveredBefore = '';
    const metered = new MeteredSse(
      meter,
      (bytes, exact) => {
        const chunks = eventsOf(framer.push(bytes), converter);
        chunks.forEach((chunk) => kept.add(chunk));
        if (!exact || !counter) return NO_OUTPUT;
        blocks?.observe(bytes);
        const text = chunks.map(completionTextOfJson).join('');
        return { text, tokens: counter.add(text) };
      },
      () => {
        deliveredBefore = kept.text;
        counter = new StreamTokenCounter(deliveredBefore);
        return countText(deliveredBefore);
      },
    );
    const hold = this.durability.strict ? new FinalEventHold() : undefined;
    const secrets = channelScrubber(channel).stream();
    const pass = (chunk: Buffer): Buffer => {
      const counting = meter.counting;
      const allowed = metered.push(chunk);
      // Before counting, whole chunks went out: their blocks are followed here.
      if (!counting && !meter.counting) blocks?.observe(chunk);
      return allowed;
    };
    const read = await pipeUpstream(
      answer,
      client,
      (chunk) => {
        firstAt ??= Date.now();
        const out = pass(secrets.push(chunk));
        return hold ? hold.push(out) : out;
      },
      () => metered.cut,
    );
    // What the scrubber held back (the beginning of a key, split by a chunk boundary), then an
    // event the upstream left unfinished.
    let owed = read.stopped
      ? Buffer.alloc(0)
      : Buffer.concat([pass(secrets.end()), metered.rest()]);
    if (!read.stopped) eventsOf(framer.end(), converter).forEach((chunk) => kept.add(chunk));
    const reported = metered.cut ? undefined : converter.usage();
    if (metered.holding) {
      if (reported && this.honouredCeiling(p, reported))
        owed = Buffer.concat([owed, metered.releaseHeld()]);
      else metered.cut = true;
    }
    if (hold) owed = Buffer.concat([hold.push(owed), hold.rest()]);
    // No usage in the stream (a cut upstream): count what was produced, as the other paths do.
    const usage = (!metered.cut && reported) || {
      promptTokens: p.promptEstimate,
      completionTokens: countText(
        metered.cut ? deliveredBefore + metered.deliveredText : kept.text,
      ),
      cachedTokens: 0,
    };
    let tail = owed.toString('utf8');
    if (metered.cut) tail += cutEnding(native.kind, ctx, usage.completionTokens, blocks?.unclosed);
    const ended = { usage, estimated: usage !== reported, firstAt, cut: metered.cut };
    return this.endStream(p, channel, upstreamModel, ended, {
      res,
      client,
      tail,
      broken: read.broken,
    });
  }
}

/**
 * The ceiling a converted or native request carries: the reserved one, or the provider's own
 * default when that is less and the client named none (Claude's `claude.default_max_tokens`).
 */
function sentCeiling(
  p: Prepared,
  adaptor: ChatAdaptor,
  upstreamModel: string,
  ctx: RequestContext,
): number | undefined {
  if (p.ceiling === undefined || p.facts.maxTokens !== undefined) return p.ceiling;
  const own = adaptor.defaultCeiling?.(upstreamModel, ctx);
  return own !== undefined && own > 0 ? Math.min(own, p.ceiling) : p.ceiling;
}

/**
 * A converted stream's output against what its reservation covers (OutputMeter): counted once its
 * bytes could pass the allowance (after what was delivered before), chunks past it held back.
 */
class ConvertedOutput {
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
      this.meter.startCounting(countText(this.kept.text));
      this.counter = new StreamTokenCounter(this.kept.text);
    }
    return this.meter.place(this.counter!.add(text));
  }
}

/** The chunk that tells a client its answer stopped at the output ceiling. */
function lengthFinish(ctx: ConvertContext): JsonObject {
  return {
    id: ctx.id,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, delta: {}, finish_reason: 'length' }],
  };
}

/**
 * What the adaptor is told besides the body: the providers' settings (parsed once per option
 * change), the client's model, and the client's bytes when global pass-through is on (the
 * playground's own `group` member left out).
 */
function requestContext(p: Prepared, upstreamModel: string): RequestContext {
  const settings = p.settings.providers;
  if (!settings.passThrough) return { settings, clientModel: p.facts.model };
  const raw = p.call.playground && p.hub ? Buffer.from(JSON.stringify(p.hub)) : p.call.raw;
  const body = p.call.playground ? p.hub : p.body;
  // The client's bytes, but for the output ceiling in its own protocol's field.
  const passThroughBody =
    p.ceiling === undefined || !body
      ? raw
      : rawWithCeiling(raw, body, clientCeilingWire(p), p.ceiling, upstreamModel).raw;
  return { settings, clientModel: p.facts.model, passThroughBody };
}

/** Where the client's own body carries its ceiling. */
function clientCeilingWire(p: Prepared): CeilingWire {
  if (p.call.ingress) return p.call.ingress;
  return p.call.endpoint === 'completions' || p.call.endpoint === 'responses'
    ? p.call.endpoint
    : 'chat';
}

/** Feeds framed events to the converter; the OpenAI chunks they produce. */
function eventsOf(events: FramedEvent[], converter: StreamConverter): JsonObject[] {
  const out: JsonObject[] = [];
  for (const event of events) {
    const data = eventObject(event);
    if (data) out.push(...converter.event(data, event.name));
  }
  return out;
}

/** The completion text of converted chunks, kept (bounded) to count locally when no usage comes. */
class KeptText {
  text = '';

  add(chunk: JsonObject): void {
    if (this.text.length < KEEP_TEXT_CHARS) this.text += completionTextOfJson(chunk);
  }
}
