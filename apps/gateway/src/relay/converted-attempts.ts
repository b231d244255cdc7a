/**
 * Attempts through a converting adaptor between the client's protocol and the channel's (the
 * OpenAI chat body is the hub): hub → adaptor → hub → the client's wire. Off the OpenAI hot path:
 * these parse and build JSON per answer.
 */
import { withFields } from '@tollgate/domain';
import type { ServerResponse } from 'node:http';
import {
  bodyWithCeiling,
  type ChatAdaptor,
  channelScrubber,
  chunksOfCompletion,
  completionTextOfJson,
  type ConvertContext,
  countText,
  framerFor,
  type JsonObject,
  OutputMeter,
  parseJsonObject,
  type ProviderRequest,
  type RelayEndpoint,
  RESPONSES_OVER_CHAT,
  SensitiveStreamGuard,
  upstreamModelName,
  type UpstreamUsage,
} from '@tollgate/relay';
import type { Dispatcher } from 'undici';
import { clientStreamOf, pipeUpstream } from './client-stream';
import { codecClient } from './client-wire';
import { ConvertedOutput, eventsOf, KeptText, lengthFinish } from './converted-output';
import { failedWith, requestContext, sendToProvider, sentCeiling } from './provider-call';
import {
  type Answered,
  answerContext,
  type AttemptResult,
  honouredCeiling,
  outputAllowance,
  type Prepared,
} from './relay-call';
import { sendBytes, sendError } from './relay-http';
import { sensitiveAnswer } from './relay-option-checks';
import type { RoutedChannel } from './relay-ports';
import type { Settlement } from './settlement';
import { headerText, networkFailure } from './upstream-io';
import { answerBytes, isStreamed, type UpstreamAnswer } from './whole-answer';
import type { UpstreamPools } from './upstream-pools';

/** Answers and errors of a Responses client served through the chat hub. */
const RESPONSES_CLIENT = codecClient(RESPONSES_OVER_CHAT);

export class ConvertedAttempts {
  constructor(
    private readonly pools: UpstreamPools,
    private readonly settlement: Settlement,
  ) {}

  /**
   * A Responses API request on a channel without one: through the chat hub, answered as a
   * `response` or the Responses events. What only OpenAI's store or hosted tools can serve is this
   * channel's refusal (another channel may serve it).
   */
  responsesOverChat(
    p: Prepared,
    channel: RoutedChannel,
    res: ServerResponse,
    adaptor: ChatAdaptor,
  ): Promise<AttemptResult> | AttemptResult {
    const hub = p.body ? RESPONSES_OVER_CHAT.toOpenAi(p.body, {}) : undefined;
    if (typeof hub !== 'object') {
      return {
        kind: 'failed',
        failure: {
          kind: 'http',
          status: 400,
          message: hub ?? 'the request body is not a JSON object',
          type: 'invalid_request_error',
          code: 'unsupported_on_channel',
        },
        notServedHere: true,
      };
    }
    return this.convert(
      withFields(p, { hub, client: RESPONSES_CLIENT }),
      channel,
      res,
      adaptor,
      hub,
      'chat',
    );
  }

  /** The client's protocol differs from the channel's: hub → adaptor → hub → the client's wire. */
  async convert(
    p: Prepared,
    channel: RoutedChannel,
    res: ServerResponse,
    adaptor: ChatAdaptor,
    hub: JsonObject,
    endpoint = p.call.ingress ? 'chat' : p.call.endpoint,
  ): Promise<AttemptResult> {
    const { facts } = p;
    const mapped = upstreamModelName(channel, facts.model);
    const rctx = requestContext(p, mapped);
    const ceiling = sentCeiling(p, adaptor, mapped, rctx);
    const bounded = ceiling === undefined ? hub : bodyWithCeiling(hub, 'chat', ceiling, mapped);
    let request: ProviderRequest;
    try {
      request = adaptor.request(endpoint, bounded, channel, mapped, facts.stream, new Date(), rctx);
      // Global pass-through: the client's bytes replace the conversion (and its prefill), before
      // any signing.
      if (rctx.passThroughBody) {
        request = withFields(request, { body: rctx.passThroughBody, answerPrefix: undefined });
      }
    } catch (error) {
      // A channel whose key or base URL cannot make a request (a malformed Bedrock key).
      return { kind: 'failed', failure: networkFailure(error) };
    }
    // The model the provider got (Claude's `-thinking` adapter sends the base model).
    const upstreamModel = request.upstreamModel ?? mapped;
    const sent = await sendToProvider(this.pools, p, channel, request, adaptor);
    if ('failed' in sent) return sent.failed;
    const { answer } = sent;
    const ctx = answerContext(p, request.answerPrefix);
    // Some providers (Baidu, Tencent) answer a stream request's failure as one JSON body.
    const jsonAnswer = headerText(answer.headers['content-type']).startsWith('application/json');
    if (isStreamed(answer) && !jsonAnswer)
      return this.stream(p, channel, upstreamModel, adaptor, answer, res, ctx);
    return this.whole(p, endpoint, channel, upstreamModel, adaptor, answer, res, ctx);
  }

  /** A whole answer converted (a provider that ignored `stream`: sent as a stream of one chunk). */
  private async whole(
    p: Prepared,
    endpoint: RelayEndpoint,
    channel: RoutedChannel,
    upstreamModel: string,
    adaptor: ChatAdaptor,
    answer: UpstreamAnswer,
    res: ServerResponse,
    ctx: ConvertContext,
  ): Promise<AttemptResult> {
    const { call, facts } = p;
    let raw: Buffer;
    try {
      raw = channelScrubber(channel).bytes(await answerBytes(answer));
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
    const firstAt = Date.now();
    const reported = converted.usage;
    const usage: UpstreamUsage = reported ?? {
      promptTokens: p.promptEstimate,
      completionTokens: countText(completionTextOfJson(converted.body)),
      cachedTokens: 0,
    };
    const refused = sensitiveAnswer(p, converted.body);
    const answered: Answered = {
      prepared: p,
      channel,
      upstreamModel,
      usage,
      estimated: reported === undefined,
      firstAt,
      stream: facts.stream,
    };
    return this.settlement.answer(p, res, answered, () => {
      if (refused) {
        sendError(res, refused, call.requestId, p.client);
      } else if (facts.stream) {
        const encoder = p.client.stream(ctx);
        const text = chunksOfCompletion(converted.body, ctx, usage)
          .map((c) => encoder.chunk(c))
          .join('');
        const client = clientStreamOf(res, call);
        client.write(text);
        client.finish(encoder.end(usage), false);
      } else {
        const payload = Buffer.from(JSON.stringify(p.client.whole(converted.body, usage, ctx)));
        sendBytes(res, 200, 'application/json', payload, call.requestId);
      }
    });
  }

  private async stream(
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
    const guard = sensitiveGuard(p);
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
    const client = clientStreamOf(res, p.call);
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
      if (reported && honouredCeiling(p, reported))
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
    const answered: Answered = {
      prepared: p,
      channel,
      upstreamModel,
      usage,
      estimated: usage !== reported,
      firstAt,
      stream: true,
      cut: metered.cut,
    };
    return this.settlement.finishStream(answered, { res, client, tail, broken: read.broken });
  }
}

/**
 * The sensitive-word guard of a converted stream (when the output check is on): it holds encoded
 * chunks back (StreamCacheQueueLength) and stops at a word.
 */
function sensitiveGuard(p: Prepared): SensitiveStreamGuard<string> | undefined {
  const output = p.settings.sensitive.output;
  return output
    ? new SensitiveStreamGuard<string>(output, p.settings.sensitive.streamQueue)
    : undefined;
}
