/**
 * A non-stream call's answer, read whole from undici's dispatch callbacks. `Pool.request()` wraps
 * each answer in a Readable (an async resource, a buffer list), hands its bytes over in 'data' and
 * 'end' events a turn of nextTick apart, and the attempt awaits them; a non-stream call reads the
 * whole body anyway. Here the last byte's callback resolves the answer itself: ~35 µs less from
 * the upstream's last byte to the client's answer at concurrency 1, ~3 KiB less garbage a call
 * (docs/performance-journal.md, "A whole answer without a stream").
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { MAX_ERROR_BODY_BYTES, MAX_JSON_ANSWER_BYTES, readAll, readBounded } from './upstream-io';

/** An answer read whole: a 2xx one up to MAX_JSON_ANSWER_BYTES, any other's first 64 KiB. */
export interface WholeAnswer {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  readonly whole: Buffer;
}

/** An upstream call's answer: a stream call's body still to be read, or a whole one. */
export type UpstreamAnswer =
  (Dispatcher.ResponseData & { readonly whole?: undefined }) | WholeAnswer;

/** The answer of a stream call, its body a stream still to be read. */
export function isStreamed(
  answer: UpstreamAnswer,
): answer is Dispatcher.ResponseData & { readonly whole?: undefined } {
  return answer.whole === undefined;
}

export const isSuccess = (statusCode: number): boolean => statusCode >= 200 && statusCode < 300;

/** What a whole answer may hold: a 2xx body (else an error), another status's first bytes. */
export interface WholeAnswerLimits {
  readonly success: number;
  readonly error: number;
}

const LIMITS: WholeAnswerLimits = { success: MAX_JSON_ANSWER_BYTES, error: MAX_ERROR_BODY_BYTES };

/**
 * Collects one answer. A 2xx body over its limit aborts the call (an error, as the stream reader
 * gives); any other status keeps its first bytes, reads the rest to keep the connection, and a
 * transport error after its headers still gives what arrived: the status alone is the failure.
 */
class WholeAnswerHandler implements Dispatcher.DispatchHandler {
  private statusCode = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;

  constructor(
    private readonly limits: WholeAnswerLimits,
    private readonly resolve: (answer: WholeAnswer) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  /** Present so undici takes this for a handler of its current interface. */
  onRequestStart(): void {}

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    // 1xx (100 Continue, 103 Early Hints) come before the answer's own head.
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!isSuccess(this.statusCode)) {
      const { error } = this.limits;
      if (this.size < error) this.chunks.push(chunk.subarray(0, error - this.size));
      this.size += chunk.length;
      return;
    }
    this.size += chunk.length;
    if (this.size > this.limits.success) {
      controller.abort(
        Object.assign(new Error('upstream answer too large'), { code: 'TOLLGATE_TOO_LARGE' }),
      );
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.finish();
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    if (this.statusCode !== 0 && !isSuccess(this.statusCode)) return this.finish();
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }

  private finish(): void {
    if (this.settled) return;
    this.settled = true;
    const { chunks } = this;
    const whole = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    this.resolve({ statusCode: this.statusCode, headers: this.headers, whole });
  }
}

/** Sends `options` on `dispatcher` and resolves with the answer read whole. */
export function requestWhole(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  limits = LIMITS,
): Promise<WholeAnswer> {
  return new Promise<WholeAnswer>((resolve, reject) => {
    dispatcher.dispatch(options, new WholeAnswerHandler(limits, resolve, reject));
  });
}

/** A successful answer's body, whichever way it came (a stream call's, bounded as it is read). */
export function answerBytes(answer: UpstreamAnswer): Buffer | Promise<Buffer> {
  return isStreamed(answer) ? readAll(answer.body, MAX_JSON_ANSWER_BYTES) : answer.whole;
}

/** A failed answer's first MAX_ERROR_BODY_BYTES as text; never throws. */
export function errorText(answer: UpstreamAnswer): string | Promise<string> {
  return isStreamed(answer)
    ? readBounded(answer.body, MAX_ERROR_BODY_BYTES)
    : answer.whole.toString('utf8');
}
