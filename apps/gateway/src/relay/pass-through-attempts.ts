/**
 * The hot path: an OpenAI client and an OpenAI-wire channel. The client's bytes go as they came
 * (the mapped model, the output ceiling and include_usage written in), the answer's bytes come back
 * as the upstream sent them, the channel's key masked.
 */
import { withFields } from '@tollgate/domain';
import type { ServerResponse } from 'node:http';
import type { TokenUsage } from '@tollgate/domain';
import {
  channelScrubber,
  completionTextOfJson,
  countText,
  type JsonObject,
  outgoingJson,
  parseJsonObject,
  rawWithCeiling,
  replaceMultipartField,
  reportsStreamUsage,
  retryAfterMs,
  upstreamErrorInfo,
  upstreamModelName,
  upstreamTarget,
  usageFromJson,
} from '@tollgate/relay';
import type { Dispatcher } from 'undici';
import { ClientStream, relayStream } from './client-stream';
import { ceilingWireOf, PassThroughStream } from './pass-through-stream';
import type { Answered, AttemptResult, Prepared } from './relay-call';
import { sendBytes, sendError } from './relay-http';
import { sensitiveAnswer } from './relay-option-checks';
import type { RoutedChannel } from './relay-ports';
import type { Settlement } from './settlement';
import { networkFailure } from './upstream-io';
import { dispatchUpstream } from './upstream-dispatch';
import type { UpstreamPools } from './upstream-pools';
import { scrubbedHeader } from './upstream-secrets';
import { answerBytes, errorText, isStreamed, isSuccess, type UpstreamAnswer } from './whole-answer';

export class PassThroughAttempts {
  constructor(
    private readonly pools: UpstreamPools,
    private readonly settlement: Settlement,
  ) {}

  /** One upstream call; answers the client when it succeeds. */
  async attempt(p: Prepared, channel: RoutedChannel, res: ServerResponse): Promise<AttemptResult> {
    const { call, facts } = p;
    const upstreamModel = upstreamModelName(channel, facts.model);
    const outBody = outgoingBody(p, channel, upstreamModel);
    let answer: UpstreamAnswer;
    try {
      // Inside the try: a base URL the channel rules let through but URL cannot parse (an empty
      // one on a Custom or Azure channel) is this channel's failure, not the request's 500.
      const target = upstreamTarget(
        channel,
        call.endpoint,
        upstreamModel,
        call.contentType,
        facts.stream,
      );
      answer = await dispatchUpstream(
        this.pools,
        p,
        channel,
        withFields(target, { method: 'POST', body: outBody }),
      );
    } catch (error) {
      return { kind: 'failed', failure: networkFailure(error) };
    }
    if (!isSuccess(answer.statusCode)) {
      const text = await errorText(answer);
      const info = upstreamErrorInfo(text);
      return {
        kind: 'failed',
        failure: { kind: 'http', status: answer.statusCode, ...info },
        retryAfterMs: retryAfterMs(answer.headers['retry-after'], Date.now()),
      };
    }
    const contentType = scrubbedHeader(answer.headers['content-type'], channel);
    if (isStreamed(answer) && contentType.includes('text/event-stream'))
      return this.streamAnswer(p, channel, upstreamModel, answer, res);
    return this.wholeAnswer(p, channel, upstreamModel, answer, contentType, res);
  }

  /**
   * Non-stream answers: read whole (bounded), then answered with the bytes as they came and
   * settled (Settlement.answer says in which order).
   */
  private async wholeAnswer(
    p: Prepared,
    channel: RoutedChannel,
    upstreamModel: string,
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
    // Parsed only when the output check is on: the pass-through answer is otherwise never read.
    const refused =
      p.settings.sensitive.output && contentType.includes('json')
        ? sensitiveAnswer(p, parseJsonObject(raw))
        : undefined;
    const { usage, estimated } = usageOfWhole(p, raw, contentType);
    const answered: Answered = {
      prepared: p,
      channel,
      upstreamModel,
      usage,
      estimated,
      firstAt,
      stream: false,
    };
    return this.settlement.answer(p, res, answered, () => {
      if (refused) sendError(res, refused, p.call.requestId, p.client);
      else
        sendBytes(res, answer.statusCode, contentType || 'application/json', raw, p.call.requestId);
    });
  }

  /**
   * SSE answers (PassThroughStream): if the client leaves, the upstream is still read (bounded)
   * so the work is billed.
   */
  private async streamAnswer(
    p: Prepared,
    channel: RoutedChannel,
    upstreamModel: string,
    answer: Dispatcher.ResponseData,
    res: ServerResponse,
  ): Promise<AttemptResult> {
    const stream = new PassThroughStream(p, channel, this.settlement.strict);
    const client = new ClientStream(res, p.call.requestId);
    client.open();
    return relayStream(this.settlement, answer, client, stream, { res, channel, upstreamModel });
  }
}

/** The body sent upstream. */
function outgoingBody(p: Prepared, channel: RoutedChannel, upstreamModel: string): Buffer {
  const { call, facts } = p;
  if (p.boundary !== undefined) {
    return upstreamModel !== facts.model
      ? replaceMultipartField(call.raw, p.boundary, 'model', upstreamModel)
      : call.raw;
  }
  // The Responses API always reports usage (in response.completed) and has no include_usage.
  const includeUsage =
    facts.stream && call.endpoint !== 'responses' && reportsStreamUsage(channel.type);
  const json = ceiled(p, upstreamModel);
  // global.pass_through_request_enabled: the client's bytes as they came but for the output
  // ceiling (no mapped model in the body, no include_usage: a stream without usage is
  // counted locally), as new-api sends them.
  return p.settings.providers.passThrough && !call.playground
    ? json.raw
    : outgoingJson(json.raw, json.body, { model: upstreamModel, includeUsage });
}

/** The request's JSON with its output ceiling (the playground's own `group` member left out). */
function ceiled(p: Prepared, upstreamModel: string): { raw: Buffer; body: JsonObject } {
  let raw = p.call.raw;
  let body = p.body ?? {};
  if (p.call.playground && 'group' in body) {
    const { group: _group, ...rest } = body;
    body = rest;
    raw = Buffer.from(JSON.stringify(rest));
  }
  if (p.ceiling === undefined) return { raw, body };
  return rawWithCeiling(raw, body, ceilingWireOf(p.call.endpoint), p.ceiling, upstreamModel);
}

/** A whole answer's usage: as reported, else counted here. */
function usageOfWhole(
  p: Prepared,
  raw: Buffer,
  contentType: string,
): { usage: TokenUsage; estimated: boolean } {
  const endpoint = p.call.endpoint;
  if (contentType.includes('json')) {
    const reported = usageFromJson(raw);
    if (reported) return { usage: reported, estimated: false };
  }
  if (endpoint === 'audioTranscriptions' || endpoint === 'audioTranslations') {
    const parsed = contentType.includes('json') ? parseJsonObject(raw) : undefined;
    const text = parsed ? completionTextOfJson(parsed) : raw.toString('utf8');
    return {
      usage: { promptTokens: 0, completionTokens: countText(text), cachedTokens: 0 },
      estimated: true,
    };
  }
  let completion = 0;
  if (endpoint === 'chat' || endpoint === 'completions') {
    completion = countText(completionTextOfJson(parseJsonObject(raw)));
  }
  return {
    usage: { promptTokens: p.promptEstimate, completionTokens: completion, cachedTokens: 0 },
    estimated: true,
  };
}
