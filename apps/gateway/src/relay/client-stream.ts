/**
 * Streaming an answer to the client while reading the upstream: its headers and framing,
 * backpressure, and a client that leaves mid-stream. After the client left the upstream is still
 * read (bounded in time and bytes) so that the work it did is billed; then it is cut.
 */
import { withFields } from '@tollgate/domain';
import type { ServerResponse } from 'node:http';
import { GeminiArrayStream } from '@tollgate/relay';
import type { Dispatcher } from 'undici';
import type { Answered, AttemptResult, RelayCall } from './relay-call';
import type { RoutedChannel } from './relay-ports';
import type { Settlement } from './settlement';
import { CORS_HEADERS, REQUEST_ID_HEADER } from './relay-http';
import { AFTER_DISCONNECT_MAX_BYTES, AFTER_DISCONNECT_MAX_MS, drained } from './upstream-io';

const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';

/**
 * A client stream framed otherwise than SSE (Gemini's JSON array): the SSE the relay writes goes
 * through it, and it closes the answer validly whether the upstream ended well or broke.
 */
export interface StreamFraming {
  readonly contentType: string;
  push(sse: string | Buffer): string;
  end(broken: boolean): string;
}

export class ClientStream {
  /** True once anything (headers included) went to the client. */
  started = false;
  goneAt: number | undefined;
  private readonly onClose = () => {
    if (!this.res.writableFinished) this.goneAt ??= Date.now();
  };

  constructor(
    private readonly res: ServerResponse,
    private readonly requestId: string,
    /** Undefined: SSE, written as it comes. */
    private readonly framing?: StreamFraming,
  ) {
    res.on('close', this.onClose);
    if (res.destroyed) this.goneAt = Date.now();
  }

  /** Sends the stream's headers now (the pass-through does, before the first chunk). */
  open(): void {
    if (this.started) return;
    this.started = true;
    if (this.res.destroyed || this.res.headersSent) return;
    this.res.writeHead(
      200,
      withFields(CORS_HEADERS, {
        'content-type': this.framing?.contentType ?? SSE_CONTENT_TYPE,
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        [REQUEST_ID_HEADER]: this.requestId,
      }),
    );
  }

  get gone(): boolean {
    if (this.goneAt === undefined && this.res.destroyed) this.goneAt = Date.now();
    return this.goneAt !== undefined;
  }

  /** Writes; false when the client's buffer is full (wait for `drained`). */
  write(data: string | Buffer): boolean {
    if (data.length === 0) return true;
    this.open();
    const out = this.framing ? this.framing.push(data) : data;
    return out.length === 0 || this.res.write(out);
  }

  /**
   * Ends the answer: with `tail` (closing events) when the upstream ended well, without it when it
   * broke or was cut (the client sees an unfinished stream, not a fake ending). A framed stream is
   * always closed by its framing (a JSON array must end to parse).
   */
  finish(tail: string, broken: boolean): void {
    this.res.off('close', this.onClose);
    if (this.res.destroyed || this.res.writableEnded) return;
    if (this.goneAt !== undefined) return void this.res.end();
    this.open();
    if (this.framing)
      this.res.end(this.framing.push(broken ? '' : tail) + this.framing.end(broken));
    else if (broken || tail === '') this.res.end();
    else this.res.end(tail);
  }

  drained(): Promise<void> {
    return drained(this.res);
  }
}

/** A call's stream to its client: SSE, or the JSON array a Gemini client without `alt=sse` reads. */
export function clientStreamOf(
  res: ServerResponse,
  call: Pick<RelayCall, 'requestId' | 'arrayStream'>,
): ClientStream {
  return new ClientStream(
    res,
    call.requestId,
    call.arrayStream ? new GeminiArrayStream() : undefined,
  );
}

/**
 * Reads the upstream to its end, writing what `transform` makes of each chunk to the client.
 * `broken`: the upstream failed mid-stream or was cut after the client left. `stop`: asked after
 * each chunk; true cuts the upstream on purpose (`stopped`, a sensitive word in the output).
 */
export async function pipeUpstream(
  answer: Dispatcher.ResponseData,
  client: ClientStream,
  transform: (chunk: Buffer) => string | Buffer,
  stop?: () => boolean,
): Promise<{ broken: boolean; stopped: boolean }> {
  let bytesAfterGone = 0;
  let broken = false;
  let stopped = false;
  try {
    for await (const chunk of answer.body) {
      const buf = chunk as Buffer;
      const out = transform(buf);
      if (stop?.()) {
        if (!client.gone) client.write(out);
        stopped = true;
        break;
      }
      if (!client.gone) {
        if (!client.write(out)) await client.drained();
        continue;
      }
      bytesAfterGone += buf.length;
      if (
        bytesAfterGone > AFTER_DISCONNECT_MAX_BYTES ||
        Date.now() - (client.goneAt ?? Date.now()) > AFTER_DISCONNECT_MAX_MS
      ) {
        broken = true;
        break;
      }
    }
  } catch {
    broken = true; // the upstream broke mid-stream: bill what was produced
  } finally {
    if (broken || stopped) answer.body.destroy();
  }
  return { broken, stopped };
}

/** An upstream stream the relay meters as it passes it on (pass-through's and native's). */
export interface RelayedStream {
  /** The part of an upstream chunk the client may have now. */
  push(chunk: Buffer): Buffer;
  /** True once the upstream must be stopped (cut at the reservation, a sensitive word). */
  readonly stopping: boolean;
  /** The upstream ended (`stopped`: on purpose); sets `tail`. The answer, as it is billed. */
  end(stopped: boolean, channel: RoutedChannel, upstreamModel: string): Answered;
  /** What the stream still owes the client after the upstream's last chunk. */
  readonly tail: string;
}

/** Pipes the upstream through `stream` to the client, then settles and writes the tail. */
export async function relayStream(
  settlement: Settlement,
  answer: Dispatcher.ResponseData,
  client: ClientStream,
  stream: RelayedStream,
  to: { res: ServerResponse; channel: RoutedChannel; upstreamModel: string },
): Promise<AttemptResult> {
  const read = await pipeUpstream(
    answer,
    client,
    (chunk) => stream.push(chunk),
    () => stream.stopping,
  );
  const answered = stream.end(read.stopped, to.channel, to.upstreamModel);
  return settlement.finishStream(answered, {
    res: to.res,
    client,
    tail: stream.tail,
    broken: read.broken,
  });
}
