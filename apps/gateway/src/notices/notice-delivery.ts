import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  noticeDecider,
  noticeStreamId,
  type NoticeChannel,
  type NoticeRaised,
  type RaiseNotice,
} from '@tollgate/domain';
import { systemMeta } from '../channels/channel-tasks';
import { SecretBox } from '../infrastructure/secret-box';
import { StreamCommands } from '../infrastructure/stream-commands';
import { Mailer } from '../mail/mailer';
import { OptionsCache } from '../options/options.cache';
import { ApiError } from '../shared/api-error';
import type { RequestMeta } from '../shared/request-meta';
import { NoticeDirectory } from './notice-directory';
import { noticeMail, webhookPayload, type NoticeDisplay } from './notice-content';
import { guardedAgent, systemLookup, type AddressLookup } from '../shared/net/guarded-connect';
import { postWebhook, webhookAddressProblem, type WebhookOutcome } from './webhook';

export interface RetryPolicy {
  /** Delay before the second attempt; doubled for each further one. */
  readonly firstMs: number;
  /** Longest delay between two attempts. */
  readonly capMs: number;
  /** No attempt is made later than this after the notice was raised. */
  readonly windowMs: number;
  /** Upper bound of one webhook call. */
  readonly timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  firstMs: 30_000,
  capMs: 15 * 60_000,
  windowMs: 60 * 60_000,
  timeoutMs: 10_000,
};

/** Delay after failed attempt `attempt` (1-based): 30 s, 1 min, 2 min, … capped. */
export function retryDelayMs(attempt: number, policy: RetryPolicy): number {
  return Math.min(policy.capMs, policy.firstMs * 2 ** Math.max(0, attempt - 1));
}

export interface AttemptOutcome extends WebhookOutcome {
  /** No retry would help (no address, a refused URL). */
  readonly final: boolean;
}

/**
 * Delivers notices: records the notice (once: its id derives from what caused it), then tries its
 * channel — webhook POST signed with the user's secret, or mail through the SMTP options — and
 * records every attempt as an event; a failure is retried with backoff for an hour. Nothing here
 * runs on the relay's path: notices are raised by reactions to events, on timers. After a restart
 * `resume` picks up the notices the log shows undelivered.
 */
@Injectable()
export class NoticeDelivery implements OnApplicationShutdown {
  private readonly logger = new Logger('Notices');
  /** Mutable for tests. */
  policy: RetryPolicy = DEFAULT_RETRY;
  /** DNS for the address policy, at save and at connect time (tests may replace it). */
  lookup: AddressLookup | undefined;
  /** Webhook calls while private addresses are refused: the policy on the address connected to. */
  private readonly guarded = guardedAgent({
    lookup: (host) => (this.lookup ?? systemLookup)(host),
  });
  now: () => number = Date.now;
  /** Whether a scheduled attempt may run here now (the scheduler role in scale-out). */
  mayAttempt: () => boolean = () => true;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly busy = new Set<string>();
  private stopped = false;

  constructor(
    private readonly store: StreamCommands,
    private readonly directory: NoticeDirectory,
    private readonly options: OptionsCache,
    private readonly mailer: Mailer,
    private readonly box: SecretBox,
  ) {}

  /** Records the notice; when it is new, its first attempt follows at once (in the background). */
  async raise(
    command: Omit<RaiseNotice, 'type'>,
    meta: RequestMeta = systemMeta(),
  ): Promise<boolean> {
    const result = await this.store.execute(
      noticeStreamId(command.noticeId),
      noticeDecider,
      { type: 'RaiseNotice', ...command },
      meta,
      { commandId: `notice:${command.noticeId}`, now: new Date(this.now()) },
    );
    const raised = result.events[0];
    if (!raised || raised.type !== 'NoticeRaised') return false;
    this.schedule(raised.data, 1, 0);
    return true;
  }

  /** A test notice over the user's channel: one attempt, answered (never retried). */
  async sendTest(userId: number, meta: RequestMeta): Promise<AttemptOutcome> {
    const recipient = this.directory.recipient(userId);
    if (!recipient) throw new ApiError('user.not_found');
    const noticeId = `test-${userId}-${randomUUID()}`;
    const result = await this.store.execute(
      noticeStreamId(noticeId),
      noticeDecider,
      {
        type: 'RaiseNotice',
        noticeId,
        userId,
        kind: 'test',
        channel: recipient.notifyType,
        facts: {},
      },
      meta,
      { now: new Date(this.now()) },
    );
    const raised = result.events[0];
    if (!raised || raised.type !== 'NoticeRaised') throw new ApiError('common.internal_error');
    const outcome = await this.perform(raised.data);
    await this.record(raised.data, 1, outcome, true);
    return outcome;
  }

  /** After the caches replayed the log: every open notice is retried, or given up when too old. */
  resume(): void {
    for (const record of this.directory.open()) {
      const attempts = record.attempts.length;
      const last = record.attempts[attempts - 1];
      const due = last ? last.time + retryDelayMs(attempts, this.policy) : this.now();
      this.schedule(record.raised, attempts + 1, Math.max(0, due - this.now()));
    }
  }

  /** The scheduler role was lost: the next holder's `resume` retries what is still open. */
  pause(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.pause();
    await this.guarded.close();
  }

  private schedule(notice: NoticeRaised['data'], attempt: number, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(notice, attempt);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(notice: NoticeRaised['data'], attempt: number): Promise<void> {
    if (this.stopped || this.busy.has(notice.noticeId) || !this.mayAttempt()) return;
    this.busy.add(notice.noticeId);
    try {
      const expired = this.now() > notice.raisedTime + this.policy.windowMs;
      const outcome: AttemptOutcome = expired
        ? { ok: false, status: 0, error: 'expired', final: true }
        : await this.perform(notice);
      const next = this.now() + retryDelayMs(attempt, this.policy);
      const final = outcome.ok || outcome.final || next > notice.raisedTime + this.policy.windowMs;
      await this.record(notice, attempt, outcome, final);
      if (!final) this.schedule(notice, attempt + 1, next - this.now());
    } catch (error) {
      // The attempt could not be recorded (storage trouble): try again later, same attempt number.
      this.logger.warn(`notice ${notice.noticeId}: ${String(error)}`);
      this.schedule(notice, attempt, retryDelayMs(attempt, this.policy));
    } finally {
      this.busy.delete(notice.noticeId);
    }
  }

  private async record(
    notice: NoticeRaised['data'],
    attempt: number,
    outcome: AttemptOutcome,
    final: boolean,
  ): Promise<void> {
    await this.store.execute(
      noticeStreamId(notice.noticeId),
      noticeDecider,
      {
        type: 'RecordDeliveryAttempt',
        attempt,
        ok: outcome.ok,
        status: outcome.status,
        error: outcome.error,
        final,
      },
      systemMeta(),
      { commandId: `notice:${notice.noticeId}:attempt:${attempt}`, now: new Date(this.now()) },
    );
  }

  /** One delivery over the notice's channel, with the recipient's settings as they are now. */
  async perform(notice: NoticeRaised['data']): Promise<AttemptOutcome> {
    const recipient = this.directory.recipient(notice.userId);
    if (!recipient || recipient.deleted)
      return { ok: false, status: 0, error: 'no such user', final: true };
    const display = this.display();
    const channel: NoticeChannel = notice.channel;
    if (channel === 'webhook') {
      const url = recipient.webhookUrl;
      if (!url) return { ok: false, status: 0, error: 'no webhook URL', final: true };
      const allowPrivate = this.options.bool('WebhookAllowPrivateAddresses');
      const problem = await webhookAddressProblem(url, allowPrivate, this.lookup);
      if (problem === 'private' || problem === 'invalid')
        return { ok: false, status: 0, error: `refused: ${problem} address`, final: true };
      if (problem === 'unresolved')
        return { ok: false, status: 0, error: 'host does not resolve', final: false };
      const secret = recipient.sealedWebhookSecret
        ? this.box.open(recipient.sealedWebhookSecret)
        : '';
      const body = JSON.stringify(webhookPayload(notice, display));
      const dispatcher = allowPrivate ? undefined : this.guarded;
      const outcome = await postWebhook(url, body, secret, this.policy.timeoutMs, dispatcher);
      return { ...outcome, final: false };
    }
    const to = recipient.notificationEmail || recipient.email;
    if (!to) return { ok: false, status: 0, error: 'no email address', final: true };
    try {
      await this.mailer.send(noticeMail(to, notice, display));
      return { ok: true, status: 250, error: '', final: false };
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'mail.send_failed';
      return { ok: false, status: 0, error: code, final: false };
    }
  }

  private display(): NoticeDisplay {
    return {
      systemName: this.options.get('SystemName') || 'Tollgate',
      serverAddress: this.options.get('ServerAddress'),
      displayInCurrency: this.options.bool('DisplayInCurrencyEnabled'),
      quotaPerUnit: this.options.number('QuotaPerUnit'),
    };
  }
}
