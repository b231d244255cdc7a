/**
 * Splits a Bedrock InvokeModelWithResponseStream body (`application/vnd.amazon.eventstream`)
 * into events shaped like the SSE framer's, so the Anthropic stream converter reads them unchanged.
 * A binary message is `total length (4) | headers length (4) | prelude CRC | headers | payload |
 * message CRC`; messages cut anywhere across chunks are kept until whole, then decoded (CRCs
 * checked) by @smithy/core's EventStreamCodec.
 */
import type * as EventStreams from '@smithy/core/event-streams';
import type { EventStreamCodec } from '@smithy/core/event-streams';
import type * as Serde from '@smithy/core/serde';
import type { FramedEvent } from '../framing';
import { isObject, text } from '../json-parts';

type Message = ReturnType<EventStreamCodec['decode']>;

/** Prelude (8) + prelude CRC (4) + message CRC (4): the smallest message. */
const MESSAGE_OVERHEAD = 16;
/** AWS event-stream messages are at most 16 MiB; a larger length means the bytes are not one. */
const MAX_MESSAGE = 16 * 1024 * 1024;

/** Anthropic's in-stream error event as text, so its converter reports the failure. */
export function anthropicErrorEvent(type: string, message: string): FramedEvent {
  return { name: 'error', data: JSON.stringify({ type: 'error', error: { type, message } }) };
}

function header(message: Message, name: string): string {
  const value = message.headers[name];
  return value?.type === 'string' ? value.value : '';
}

function payloadJson(message: Message): unknown {
  try {
    return JSON.parse(Buffer.from(message.body).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The codec, loaded when the first Bedrock stream is framed: the AWS packages cost ~11 MiB at
 * start-up to gateways without a Bedrock channel, and a framer is built synchronously.
 */
function newCodec(): EventStreamCodec {
  /* eslint-disable @typescript-eslint/no-require-imports -- a synchronous lazy load */
  const events = require('@smithy/core/event-streams') as typeof EventStreams;
  const serde = require('@smithy/core/serde') as typeof Serde;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return new events.EventStreamCodec(serde.toUtf8, serde.fromUtf8);
}

export class AwsEventStreamFramer {
  private readonly codec = newCodec();
  private pending: Buffer | undefined;
  /** After corrupt bytes nothing later can be trusted to start a message. */
  private broken = false;

  /** Feeds bytes; returns the events of the messages they complete. */
  push(chunk: Buffer): FramedEvent[] {
    if (this.broken) return [];
    const out: FramedEvent[] = [];
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let offset = 0;
    while (data.length - offset >= 4) {
      const total = data.readUInt32BE(offset);
      if (total < MESSAGE_OVERHEAD || total > MAX_MESSAGE) {
        return this.fail(out, `event-stream message length ${total} is out of range`);
      }
      if (data.length - offset < total) break;
      let message: Message;
      try {
        message = this.codec.decode(data.subarray(offset, offset + total));
      } catch (error) {
        return this.fail(out, error instanceof Error ? error.message : String(error));
      }
      offset += total;
      const event = this.eventOf(message);
      if (event) out.push(event);
    }
    // Copy the tail: `chunk` may be a pooled buffer the caller reuses.
    this.pending = offset < data.length ? Buffer.from(data.subarray(offset)) : undefined;
    return out;
  }

  /** After the last chunk: a message left incomplete is a cut stream, reported as an error. */
  end(): FramedEvent[] {
    const left = this.pending?.length ?? 0;
    this.pending = undefined;
    if (this.broken || left === 0) return [];
    this.broken = true;
    return [anthropicErrorEvent('stream_truncated', `event stream ended inside a message`)];
  }

  private fail(out: FramedEvent[], reason: string): FramedEvent[] {
    this.broken = true;
    this.pending = undefined;
    out.push(anthropicErrorEvent('invalid_event_stream', `Bedrock event stream: ${reason}`));
    return out;
  }

  private eventOf(message: Message): FramedEvent | undefined {
    const kind = header(message, ':message-type');
    if (kind === 'event') {
      // Other event types (initial-response, …) carry nothing the converter needs.
      if (header(message, ':event-type') !== 'chunk') return undefined;
      const payload = payloadJson(message);
      const bytes = isObject(payload) ? text(payload.bytes) : '';
      if (bytes === '') return undefined;
      return { name: undefined, data: Buffer.from(bytes, 'base64').toString('utf8') };
    }
    if (kind === 'exception') {
      // e.g. throttlingException, validationException, modelStreamErrorException.
      const type = header(message, ':exception-type') || 'exception';
      const payload = payloadJson(message);
      const said = isObject(payload) ? text(payload.message) || text(payload.Message) : '';
      return anthropicErrorEvent(type, said || Buffer.from(message.body).toString('utf8'));
    }
    if (kind === 'error') {
      // The protocol's own errors carry their code and message in headers.
      return anthropicErrorEvent(
        header(message, ':error-code') || 'error',
        header(message, ':error-message'),
      );
    }
    return undefined;
  }
}
