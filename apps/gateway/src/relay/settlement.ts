/**
 * Settling an answered call: the book charges its whole cost (even past the reservation: a debt
 * when unpaid), the limiters count it, its receipt is appended; under strict durability
 * (BILLING_DURABILITY=strict) an answer's last bytes wait for that receipt's commit.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from '@nestjs/common';
import { chargeFor } from '@tollgate/domain';
import type { TokenLimiter, UserRequestLimiter } from '@tollgate/relay';
import { buildReceipt } from './build-receipt';
import type { ClientStream } from './client-stream';
import type { Answered, AttemptResult, Prepared } from './relay-call';
import { relayError, sendError } from './relay-http';
import type {
  BalanceBookPort,
  RelayCommandsPort,
  ScaleOutLimitsPort,
  UsageAppenderPort,
} from './relay-ports';

/** The rest of a streamed answer, written once its receipt allows. */
export interface StreamEnd {
  readonly res: ServerResponse;
  readonly client: ClientStream;
  readonly tail: string;
  readonly broken: boolean;
}

export class Settlement {
  constructor(
    private readonly book: Pick<BalanceBookPort, 'settle' | 'tokenSettledRemaining'>,
    private readonly appender: UsageAppenderPort,
    private readonly commands: RelayCommandsPort,
    private readonly tokenLimiter: TokenLimiter,
    private readonly userLimiter: UserRequestLimiter,
    /** BILLING_DURABILITY=strict: an answer's last bytes wait for its receipt's commit. */
    readonly strict: boolean,
    private readonly logger: Logger,
    /** Scale-out: the limits counted across processes (undefined or inactive alone). */
    private readonly scaleOutLimits?: ScaleOutLimitsPort,
  ) {}

  /**
   * Charges the answer (the whole cost, even past the reservation: a debt when unpaid) and appends
   * its receipt; the promise settles when the receipt is committed.
   */
  settle(answered: Answered): Promise<unknown> {
    const p = answered.prepared;
    const { call, quote, settings, reservation } = p;
    const charge = chargeFor(quote, answered.usage, settings.price.quotaPerUnit, p.facts.n);
    const charged = this.book.settle(reservation, charge.quota);
    const token = call.caller.token;
    if (token) this.tokenLimiter.consumed(token.id, charge.promptTokens + charge.completionTokens);
    if (!call.playground) this.userLimiter.succeeded(call.caller.user.id);
    if (this.scaleOutLimits?.active) this.countAcrossProcesses(p, charge);
    const data = buildReceipt(answered, charge, charged, Date.now());
    const trace = call.trace;
    trace.promptTokens = data.promptTokens;
    trace.completionTokens = data.completionTokens;
    trace.quota = charged;
    trace.ttftMs = data.firstTokenMs;
    trace.ceilingIgnored = data.ceilingIgnored === true;
    const user = call.caller.user;
    const appended = this.appender.append(data, {
      ip: call.ip,
      actor: { kind: 'user', id: user.id, role: user.role },
      correlationId: call.correlationId,
    });
    appended.catch((error: unknown) =>
      this.logger.error(`usage append ${call.requestId} failed: ${String(error)}`),
    );
    // Used up by its charges (not merely held by other requests' open reservations).
    if (token && !token.unlimitedQuota && (this.book.tokenSettledRemaining(token.id) ?? 1) <= 0) {
      this.commands
        .markTokenExhausted(token.id)
        .catch((error: unknown) => this.logger.warn(`mark token exhausted: ${String(error)}`));
    }
    return appended;
  }

  /** Scale-out: the tokens and the success counted against the allowances shared by processes. */
  private countAcrossProcesses(p: Prepared, charge: ReturnType<typeof chargeFor>): void {
    const limits = this.scaleOutLimits!;
    const { caller, playground } = p.call;
    const token = caller.token;
    if (token)
      limits.tokenUsed(token.id, token.rateLimits, charge.promptTokens + charge.completionTokens);
    if (!playground) limits.userSucceeded(caller.user.id, p.settings.userLimits);
  }

  /**
   * Strict durability: waits for the receipt's commit; when it failed, the answer is not given
   * (an error instead, or a stream broken off) and false is returned.
   */
  async committed(p: Prepared, receipt: Promise<unknown>, res: ServerResponse): Promise<boolean> {
    try {
      await receipt;
      return true;
    } catch {
      if (res.headersSent) res.destroy();
      else {
        const error = relayError({
          lang: p.call.lang,
          status: 500,
          key: 'common.internal_error',
          type: 'tollgate_error',
          code: 'internal',
        });
        sendError(res, error, p.call.requestId, p.client);
      }
      return false;
    }
  }

  /**
   * Settles an answered call and gives the client its answer (`send`). Batched (the default), the
   * answer goes first and the call is settled right after it, in the same synchronous run: no other
   * request runs in between, and the client does not wait for the charge and the receipt's hand-off
   * (the request log's line, written once the answer's last write completes, still finds them).
   * What the charge needs from the answer (its usage) was read before: a failure there is an
   * error, not an answer. Strict, the receipt is committed first and the answer is not given if
   * that fails.
   */
  async answer(
    p: Prepared,
    res: ServerResponse,
    answered: Answered,
    send: () => void,
  ): Promise<AttemptResult> {
    if (!this.strict) {
      try {
        send();
      } finally {
        // Its receipt's failure is logged by settle; the answer is out already.
        void this.settle(answered);
      }
    } else if (await this.committed(p, this.settle(answered), res)) send();
    return ANSWERED;
  }

  /** Settles a streamed answer and writes its tail (strict durability: once it is committed). */
  finishStream(answered: Answered, out: StreamEnd): Promise<AttemptResult> {
    return this.answer(answered.prepared, out.res, answered, () =>
      out.client.finish(out.tail, out.broken),
    );
  }
}

export const ANSWERED: AttemptResult = { kind: 'answered' };
