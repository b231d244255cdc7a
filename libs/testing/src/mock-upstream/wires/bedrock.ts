/**
 * AWS Bedrock Runtime serving Claude: `POST /model/{id}/invoke` answers an Anthropic Messages JSON,
 * `POST /model/{id}/invoke-with-response-stream` the Anthropic stream events inside binary
 * `application/vnd.amazon.eventstream` messages (`{"bytes": base64}` payloads). Calls must carry a
 * SigV4 Authorization header of the right shape (the secret is unknown here, so the signature
 * itself is not checked); errors are Bedrock's `{"message"}` with an `x-amzn-errortype` header.
 */
import type { ServerResponse } from 'node:http';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';
import type { MockBehavior } from '../mock-behavior';
import { decodeSegment, sendJson, sleep, usageOf } from '../mock-kit';
import { anthropicMessage, anthropicStreamEvents, anthropicUsage } from './anthropic-messages';
import type { ProviderWire, WireCall, WireFailure } from './provider-wire';

const ROUTE = /\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const str = (value: string) => ({ type: 'string' as const, value });

/** One Anthropic stream event as a Bedrock `chunk` message. */
export function bedrockChunk(event: object): Buffer {
  const bytes = Buffer.from(JSON.stringify(event)).toString('base64');
  return Buffer.from(
    codec.encode({
      headers: {
        ':event-type': str('chunk'),
        ':content-type': str('application/json'),
        ':message-type': str('event'),
      },
      body: Buffer.from(JSON.stringify({ bytes })),
    }),
  );
}

/** A Bedrock in-stream exception message (throttlingException, modelStreamErrorException, …). */
export function bedrockException(type: string, message: string): Buffer {
  return Buffer.from(
    codec.encode({
      headers: {
        ':exception-type': str(type),
        ':content-type': str('application/json'),
        ':message-type': str('exception'),
      },
      body: Buffer.from(JSON.stringify({ message })),
    }),
  );
}

function bedrockError(status: number, type: string, message: string): WireFailure {
  return { status, body: { message }, headers: { 'x-amzn-errortype': type } };
}

// SigV4: `AWS4-HMAC-SHA256 Credential=<ak>/<yyyymmdd>/<region>/bedrock/aws4_request,
// SignedHeaders=<names;…>, Signature=<64 hex>`.
const SIGV4 =
  /^AWS4-HMAC-SHA256 Credential=([^/\s]+)\/(\d{8})\/([a-z0-9-]+)\/bedrock\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** Why the call's signature headers are refused, in Bedrock's words; undefined when well-formed. */
function signatureProblem(call: WireCall): WireFailure | undefined {
  const headers = call.res.req.headers;
  const auth = headers['authorization'];
  if (typeof auth !== 'string' || auth === '')
    return bedrockError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
  const match = SIGV4.exec(auth);
  const date = headers['x-amz-date'];
  const signed = match?.[4]?.split(';') ?? [];
  if (
    !match ||
    typeof date !== 'string' ||
    !date.startsWith(match[2]!) ||
    !signed.includes('host') ||
    !signed.includes('x-amz-date')
  ) {
    return bedrockError(
      403,
      'IncompleteSignatureException',
      `Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' with host and x-amz-date signed; got '${auth}'.`,
    );
  }
  return undefined;
}

function metricsHeaders(behavior: MockBehavior, id: number) {
  const { prompt_tokens, completion_tokens } = usageOf(behavior);
  return {
    'x-amzn-requestid': `mock-bedrock-${id}`,
    'x-amzn-bedrock-input-token-count': String(prompt_tokens),
    'x-amzn-bedrock-output-token-count': String(completion_tokens),
  };
}

/** Writes binary messages with the behaviour's pacing and break (the kit's writeStream is text). */
async function writeEventStream(
  res: ServerResponse,
  behavior: MockBehavior,
  head: Buffer[],
  frames: Buffer[],
  tail: Buffer[],
  headers: Record<string, string>,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', ...headers });
  const breakAt = behavior.breakAfterChunks;
  if (!behavior.firstChunkMs && !behavior.chunkIntervalMs && breakAt === undefined) {
    res.end(Buffer.concat([...head, ...frames, ...tail]));
    return;
  }
  let closed = false;
  res.on('close', () => (closed = true));
  if (behavior.firstChunkMs) await sleep(behavior.firstChunkMs);
  const interval = behavior.chunkIntervalMs ?? 0;
  const sent = breakAt === undefined ? frames.length : Math.min(breakAt, frames.length);
  let pending: Buffer[] = [...head];
  for (let i = 0; i < sent; i += 1) {
    pending.push(frames[i]!);
    if (interval > 0 && i < sent - 1) {
      res.write(Buffer.concat(pending));
      pending = [];
      await sleep(interval);
      if (closed) return;
    }
  }
  if (closed) return;
  if (breakAt !== undefined) {
    if (pending.length > 0) res.write(Buffer.concat(pending));
    // A provider dying mid-answer: let the written bytes leave, then reset.
    setImmediate(() => res.socket?.destroy());
    return;
  }
  res.end(Buffer.concat([...pending, ...tail]));
}

function stream(call: WireCall): Promise<void> {
  const usage = anthropicUsage(call.behavior);
  const events = anthropicStreamEvents(call, `msg_bdrk_mock_${call.id}`);
  const stop = events.tail[events.tail.length - 1]!;
  // Bedrock appends its own counts to the last event.
  stop['amazon-bedrock-invocationMetrics'] = {
    inputTokenCount: usage.input_tokens,
    outputTokenCount: usage.output_tokens,
    invocationLatency: 100,
    firstByteLatency: 50,
  };
  return writeEventStream(
    call.res,
    call.behavior,
    events.head.map(bedrockChunk),
    events.frames.map(bedrockChunk),
    events.tail.map(bedrockChunk),
    { 'x-amzn-requestid': `mock-bedrock-${call.id}` },
  );
}

export const BEDROCK_WIRE: ProviderWire = {
  name: 'bedrock',
  matches: (method, path) => method === 'POST' && ROUTE.test(path),
  modelOf(path) {
    const segment = ROUTE.exec(path)?.[1];
    return segment === undefined ? undefined : decodeSegment(segment);
  },
  answer(call) {
    const refused = signatureProblem(call);
    if (refused) return sendJson(call.res, refused.status, refused.body, refused.headers);
    if (call.path.endsWith('/invoke-with-response-stream')) return stream(call);
    sendJson(
      call.res,
      200,
      anthropicMessage(call, `msg_bdrk_mock_${call.id}`),
      metricsHeaders(call.behavior, call.id),
    );
  },
  failure(kind, status) {
    switch (kind) {
      case 'invalid_key':
        return bedrockError(
          403,
          'UnrecognizedClientException',
          'The security token included in the request is invalid.',
        );
      case 'rate_limit':
        return bedrockError(
          429,
          'ThrottlingException',
          'Too many requests, please wait before trying again.',
        );
      case 'quota_exceeded':
        return bedrockError(
          429,
          'ThrottlingException',
          'Too many tokens per day, please wait before trying again.',
        );
      case 'server_error':
        return bedrockError(
          500,
          'InternalServerException',
          'The system encountered an unexpected error during processing. Try your request again.',
        );
      default:
        return bedrockError(status, typeOfStatus(status), `mock status ${status}`);
    }
  },
};

function typeOfStatus(status: number): string {
  if (status === 400) return 'ValidationException';
  if (status === 403) return 'AccessDeniedException';
  if (status === 404) return 'ResourceNotFoundException';
  if (status === 408) return 'ModelTimeoutException';
  if (status === 424) return 'ModelErrorException';
  if (status === 429) return 'ThrottlingException';
  if (status === 503) return 'ServiceUnavailableException';
  return 'InternalServerException';
}
