/**
 * Attempts that are not a byte pass-through: a converting adaptor between the client's protocol
 * and the channel's (the OpenAI chat body is the hub), and native relays of a non-OpenAI protocol
 * to an upstream that speaks it (Anthropic → Anthropic), whose bytes pass but whose usage is read
 * in that protocol. Off the OpenAI hot path: these parse and build JSON per answer.
 */
import type { ServerResponse } from 'node:http';
import {
  type ChatAdaptor,
  channelScrubber,
  chunksOfCompletion,
  completionTextOfJson,
  type ConvertContext,
  type ConvertedFailure,
  countText,
  eventObject,
  type FramedEvent,
  type JsonObject,
  type NativeWire,
  parseJsonObject,
  type ProviderRequest,
  type RequestContext,
  retryAfterMs,
  SensitiveStreamGuard,
  SseFramer,
  framerFor,
  type StreamConverter,
  upstreamModelName,
  type UpstreamUsage,
} from '@tollgate/relay';
import type { Dispatcher } from 'undici';
import type { AttemptResult, Prepared } from './relay-call';
import { ClientStream, pipeUpstream } from './client-stream';
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
) => void;

/** Text kept for a local count when a converted stream reports no usage (4 MB as the SSE reader). */
const KEEP_TEXT_CHARS = 4 * 1024 * 1024;

function failedWith(failure: ConvertedFailure): AttemptResult {
  return {
    kind: 'failed',
    failure: { kind: 'http', status: failure.status, ...failure.info },
  };
}

export class ConvertedAttempts {
  constructor(
    private readonly pools: UpstreamPools,
    private readonly settle: Settle,
  ) {}

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
    const rctx = requestContext(p);
    let request: ProviderRequest;
    try {
      request = adaptor.request(endpoint, hub, channel, mapped, facts.stream, new Date(), rctx);
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
    if (refused) {
      sendError(res, refused, call.requestId, p.client);
      this.settle(p, channel, upstreamModel, usage, estimated, firstByteAt, facts.stream);
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
      this.settle(p, channel, upstreamModel, usage, estimated, firstByteAt, true);
      return { kind: 'answered' };
    }
    const payload = Buffer.from(JSON.stringify(p.client.whole(converted.body, usage, ctx)));
    sendBytes(res, 200, 'application/json', payload, call.requestId);
    this.settle(p, channel, upstreamModel, usage, estimated, firstByteAt, false);
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
    let firstAt: number | null = null;
    const output = p.settings.sensitive.output;
    // The sensitive-word guard holds encoded chunks back (StreamCacheQueueLength) and stops at a word.
    const guard = output
      ? new SensitiveStreamGuard<string>(output, p.settings.sensitive.streamQueue)
      : undefined;
    const toClient = (chunks: JsonObject[]): string => {
      kept.add(chunks);
      let out = '';
      for (const chunk of chunks) {
        if (!guard) out += encoder.chunk(chunk);
        else out += guard.push(encoder.chunk(chunk), completionTextOfJson(chunk)).join('');
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
      guard ? () => guard.hit !== undefined : undefined,
    );
    if (read.stopped) {
      // Stopped on a sensitive word: end the answer properly in the client's protocol.
      const usage: UpstreamUsage = {
        promptTokens: p.promptEstimate,
        completionTokens: countText(kept.text),
        cachedTokens: 0,
      };
      client.finish(encoder.end(usage), false);
      this.settle(p, channel, upstreamModel, usage, true, firstAt, true);
      return { kind: 'answered' };
    }
    // A failure before anything reached the client is this channel's failure (retry another).
    const failure = converter.failure();
    if (failure && !client.started) return failedWith(failure);
    let tail = toClient(eventsOf([...framer.push(secrets.end()), ...framer.end()], converter));
    tail += toClient(converter.end());
    const reported = converter.usage();
    const usage: UpstreamUsage = reported ?? {
      promptTokens: p.promptEstimate,
      completionTokens: countText(kept.text),
      cachedTokens: 0,
    };
    if (guard) tail += guard.flush().join('');
    tail += encoder.end(usage);
    client.finish(tail, read.broken);
    this.settle(p, channel, upstreamModel, usage, reported === undefined, firstAt, true);
    return { kind: 'answered' };
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
      request = native.request(
        call.raw,
        p.body ?? {},
        channel,
        mapped,
        facts.stream,
        call.clientHeaders ?? {},
        requestContext(p),
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
    if (facts.stream && contentType.includes('text/event-stream')) {
      const framer = new SseFramer();
      const converter = adaptor.stream(ctx);
      let firstAt: number | null = null;
      const client = new ClientStream(res, call.requestId);
      const kept = new KeptText();
      const secrets = channelScrubber(channel).stream();
      const pass = (chunk: Buffer) => {
        kept.add(eventsOf(framer.push(chunk), converter));
        return chunk;
      };
      const read = await pipeUpstream(answer, client, (chunk) => {
        firstAt ??= Date.now();
        return pass(secrets.push(chunk));
      });
      // What the scrubber held back (the beginning of a key, split by a chunk boundary).
      const held = pass(secrets.end());
      if (held.length > 0 && !client.gone) client.write(held);
      kept.add(eventsOf(framer.end(), converter));
      client.finish('', read.broken);
      const reported = converter.usage();
      // No usage in the stream (a cut upstream): count what was produced, as the other paths do.
      const usage = reported ?? {
        promptTokens: p.promptEstimate,
        completionTokens: countText(kept.text),
        cachedTokens: 0,
      };
      this.settle(p, channel, upstreamModel, usage, reported === undefined, firstAt, true);
      return { kind: 'answered' };
    }
    let raw: Buffer;
    try {
      raw = channelScrubber(channel).bytes(await readAll(answer.body, MAX_JSON_ANSWER_BYTES));
    } catch (error) {
      return { kind: 'failed', failure: networkFailure(error) };
    }
    const firstByteAt = Date.now();
    sendBytes(res, answer.statusCode, contentType || 'application/json', raw, call.requestId);
    const parsed = parseJsonObject(raw);
    const converted = parsed ? adaptor.response('chat', parsed, ctx) : undefined;
    const reported = converted?.ok ? converted.usage : undefined;
    const usage = reported ?? {
      promptTokens: p.promptEstimate,
      completionTokens: converted?.ok ? countText(completionTextOfJson(converted.body)) : 0,
      cachedTokens: 0,
    };
    this.settle(p, channel, upstreamModel, usage, reported === undefined, firstByteAt, false);
    return { kind: 'answered' };
  }
}

/**
 * What the adaptor is told besides the body: the providers' settings (parsed once per option
 * change), the client's model, and the client's bytes when global pass-through is on (the
 * playground's own `group` member left out).
 */
function requestContext(p: Prepared): RequestContext {
  const settings = p.settings.providers;
  if (!settings.passThrough) return { settings, clientModel: p.facts.model };
  const passThroughBody =
    p.call.playground && p.hub ? Buffer.from(JSON.stringify(p.hub)) : p.call.raw;
  return { settings, clientModel: p.facts.model, passThroughBody };
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

  add(chunks: JsonObject[]): void {
    for (const chunk of chunks) {
      if (this.text.length >= KEEP_TEXT_CHARS) return;
      this.text += completionTextOfJson(chunk);
    }
  }
}
