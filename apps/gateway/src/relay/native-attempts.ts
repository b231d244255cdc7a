/**
 * Native relays of a non-OpenAI protocol to an upstream that speaks it (Anthropic → Anthropic):
 * the client's bytes go (its ceiling written in), the answer's bytes come back, its usage read in
 * that protocol. Off the OpenAI hot path: these parse JSON per answer.
 */
import type { ServerResponse } from 'node:http';
import {
  type ChatAdaptor,
  channelScrubber,
  completionTextOfJson,
  countText,
  type NativeWire,
  parseJsonObject,
  type ProviderRequest,
  rawWithCeiling,
  upstreamModelName,
} from '@tollgate/relay';
import type { Dispatcher } from 'undici';
import { clientStreamOf, relayStream } from './client-stream';
import { NativeStream } from './native-stream';
import { requestContext, sendToProvider, sentCeiling } from './provider-call';
import { answerContext, type Answered, type AttemptResult, type Prepared } from './relay-call';
import { sendBytes } from './relay-http';
import type { RoutedChannel } from './relay-ports';
import type { Settlement } from './settlement';
import { networkFailure } from './upstream-io';
import { answerBytes, isStreamed, type UpstreamAnswer } from './whole-answer';
import type { UpstreamPools } from './upstream-pools';
import { scrubbedHeader } from './upstream-secrets';

export class NativeAttempts {
  constructor(
    private readonly pools: UpstreamPools,
    private readonly settlement: Settlement,
  ) {}

  /** The client speaks the channel's protocol: its bytes go, the answer's bytes come back. */
  async attempt(
    p: Prepared,
    channel: RoutedChannel,
    res: ServerResponse,
    adaptor: ChatAdaptor,
    native: NativeWire,
  ): Promise<AttemptResult> {
    const mapped = upstreamModelName(channel, p.facts.model);
    let request: ProviderRequest;
    try {
      request = nativeRequest(p, channel, adaptor, native, mapped);
    } catch (error) {
      return { kind: 'failed', failure: networkFailure(error) };
    }
    const upstreamModel = request.upstreamModel ?? mapped;
    const sent = await sendToProvider(this.pools, p, channel, request, adaptor);
    if ('failed' in sent) return sent.failed;
    const { answer } = sent;
    const contentType = scrubbedHeader(answer.headers['content-type'], channel);
    if (isStreamed(answer) && contentType.includes('text/event-stream'))
      return this.stream(p, channel, upstreamModel, adaptor, native, answer, res);
    return this.whole(p, channel, upstreamModel, adaptor, answer, contentType, res);
  }

  /** A whole answer: its bytes as they came, its usage read in the protocol (else counted). */
  private async whole(
    p: Prepared,
    channel: RoutedChannel,
    upstreamModel: string,
    adaptor: ChatAdaptor,
    answer: UpstreamAnswer,
    contentType: string,
    res: ServerResponse,
  ): Promise<AttemptResult> {
    let raw: Buffer;
    try {
      raw = channelScrubber(channel).bytes(await answerBytes(answer));
    } catch (error) {
      return { kind: 'failed', failure: networkFailure(error) };
    }
    const firstAt = Date.now();
    const parsed = parseJsonObject(raw);
    const converted = parsed ? adaptor.response('chat', parsed, answerContext(p)) : undefined;
    const reported = converted?.ok ? converted.usage : undefined;
    const usage = reported ?? {
      promptTokens: p.promptEstimate,
      completionTokens: converted?.ok ? countText(completionTextOfJson(converted.body)) : 0,
      cachedTokens: 0,
    };
    const answered: Answered = {
      prepared: p,
      channel,
      upstreamModel,
      usage,
      estimated: reported === undefined,
      firstAt,
      stream: false,
    };
    return this.settlement.answer(p, res, answered, () =>
      sendBytes(res, answer.statusCode, contentType || 'application/json', raw, p.call.requestId),
    );
  }

  private async stream(
    p: Prepared,
    channel: RoutedChannel,
    upstreamModel: string,
    adaptor: ChatAdaptor,
    native: NativeWire,
    answer: Dispatcher.ResponseData,
    res: ServerResponse,
  ): Promise<AttemptResult> {
    const ctx = answerContext(p);
    const stream = new NativeStream(p, channel, adaptor, native, ctx, this.settlement.strict);
    const client = clientStreamOf(res, p.call);
    return relayStream(this.settlement, answer, client, stream, { res, channel, upstreamModel });
  }
}

/** The client's own request, its ceiling in the protocol's field, for the channel. */
function nativeRequest(
  p: Prepared,
  channel: RoutedChannel,
  adaptor: ChatAdaptor,
  native: NativeWire,
  mapped: string,
): ProviderRequest {
  const { call, facts } = p;
  const rctx = requestContext(p, mapped);
  const ceiling = sentCeiling(p, adaptor, mapped, rctx);
  const sent =
    ceiling === undefined
      ? { raw: call.raw, body: p.body ?? {} }
      : rawWithCeiling(call.raw, p.body ?? {}, native.kind, ceiling, mapped);
  return native.request(
    sent.raw,
    sent.body,
    channel,
    mapped,
    facts.stream,
    call.clientHeaders ?? {},
    rctx,
  );
}
