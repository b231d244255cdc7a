import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { channelTypeInfo, type ChannelTestResult, ChannelStatus } from '@tollgate/contracts';
import { DomainError, SYSTEM_ACTOR, channelDecider, channelStreamId } from '@tollgate/domain';
import { channelScrubber } from '@tollgate/relay';
import type { Position } from '@tollgate/event-store';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';
import { ChannelSettings } from './channel-settings';
import { judgeTest, type TestVerdict } from './channel-test-verdict';
import { ChannelUpstream, UpstreamError } from './channel-upstream';
import { RoutingTable, type RoutedChannel } from './routing-table';

type StatusAction = NonNullable<TestVerdict['action']>;

/** How many channels the background tasks call at once. */
const BACKGROUND_CONCURRENCY = 4;

/** The system acting on its own (automatic disable/enable), caused by `meta`'s request. */
export const systemMeta = (cause?: RequestMeta): RequestMeta => ({
  actor: SYSTEM_ACTOR,
  correlationId: cause?.correlationId ?? randomUUID(),
  lang: cause?.lang ?? 'zh-CN',
});

/**
 * Channel tests and balance queries: call the provider, record the result as an event with the
 * admin as actor, and let the system disable or re-enable the channel when the options say so.
 */
@Injectable()
export class ChannelTasks implements OnApplicationShutdown {
  private readonly logger = new Logger(ChannelTasks.name);
  private readonly running = new Map<'test' | 'balance', Promise<void>>();
  private stopping = false;

  constructor(
    private readonly store: StreamCommands,
    private readonly table: RoutingTable,
    private readonly upstream: ChannelUpstream,
    private readonly settings: ChannelSettings,
  ) {}

  channelOrThrow(id: number): RoutedChannel {
    const channel = this.table.channel(id);
    if (!channel) throw new DomainError('channel.not_found');
    return channel;
  }

  /** Tests one channel; returns the answer of GET /api/channel/test/:id and the last position. */
  async test(
    channel: RoutedChannel,
    requestedModel: string,
    meta: RequestMeta,
  ): Promise<{ result: ChannelTestResult; position: Position | null }> {
    if (!ChannelUpstream.supportsTest(channel.type))
      throw new DomainError('channel.test_unsupported');
    const model = requestedModel || channel.testModel || channel.models[0] || 'gpt-4o-mini';
    const outcome = await this.upstream.test(channel, model);
    const verdict = judgeTest(outcome, channel, this.settings.testRules, meta.lang, model);
    const status = !outcome.ok && outcome.failure.kind === 'http' ? outcome.failure.status : 0;
    const recorded = await this.store.execute(
      channelStreamId(channel.id),
      channelDecider,
      {
        type: 'RecordChannelTest',
        model,
        success: verdict.success,
        responseTimeMs: outcome.elapsedMs,
        message: verdict.message,
        ...(status ? { status } : {}),
      },
      meta,
    );
    let position = recorded.position;
    if (verdict.action) {
      const changed = await this.setStatusAutomatically(channel.id, verdict.action, meta);
      position = changed.position ?? position;
    }
    const time = Math.round(outcome.elapsedMs) / 1000;
    const result: ChannelTestResult = { success: verdict.success, message: verdict.message, time };
    if (!verdict.success) result.status_code = status;
    return { result, position };
  }

  /**
   * The system's own status change (the relay, tests, the schedule): status 3 with the reason, or
   * back to 1. The decider ignores a disable of a channel that is not enabled and an enable of one
   * the system did not disable, so a status changed meanwhile (an admin's 2) is never overridden.
   */
  setStatusAutomatically(channelId: number, action: StatusAction, cause?: RequestMeta) {
    // The reason quotes the provider: the key is masked once more before it becomes an event (and
    // the channel alert, the history), whoever found the reason.
    const channel = this.table.channel(channelId);
    return this.store.execute(
      channelStreamId(channelId),
      channelDecider,
      action.kind === 'disable'
        ? {
            type: 'DisableChannelAutomatically',
            reason: channel ? channelScrubber(channel).text(action.reason) : action.reason,
            ...(action.model ? { model: action.model } : {}),
          }
        : { type: 'EnableChannelAutomatically' },
      systemMeta(cause),
    );
  }

  /** Queries one channel's balance and records it; throws the answer's message on failure. */
  async updateBalance(
    channel: RoutedChannel,
    meta: RequestMeta,
  ): Promise<{ balance: number; position: Position | null }> {
    if (!channelTypeInfo(channel.type)?.balanceApi)
      throw new DomainError('channel.balance_unsupported');
    let balance: number;
    try {
      balance = await this.upstream.balance(channel);
    } catch (error) {
      if (error instanceof UpstreamError)
        throw new DomainError('channel.balance_failed', { detail: error.failure.message });
      throw error;
    }
    const recorded = await this.store.execute(
      channelStreamId(channel.id),
      channelDecider,
      { type: 'RecordChannelBalance', balance },
      meta,
    );
    return { balance, position: recorded.position };
  }

  /**
   * Tests every channel not disabled by hand, in the background; resolves when the run is over. A
   * run already going is joined (a second click, or the schedule meeting a click), never doubled.
   */
  testAll(meta: RequestMeta): Promise<void> {
    return this.startBackground('test', meta, (channel) =>
      ChannelUpstream.supportsTest(channel.type)
        ? this.test(channel, '', meta).then(() => undefined)
        : Promise.resolve(),
    );
  }

  /** Starts updating the balance of every channel whose type has a balance API. */
  startUpdateAllBalances(meta: RequestMeta): void {
    void this.startBackground('balance', meta, (channel) =>
      channelTypeInfo(channel.type)?.balanceApi
        ? this.updateBalance(channel, meta).then(() => undefined)
        : Promise.resolve(),
    );
  }

  /** Resolves when the background run of that kind (if any) has finished (tests, shutdown). */
  async idle(kind?: 'test' | 'balance'): Promise<void> {
    await Promise.all(
      [...this.running.entries()].filter(([k]) => !kind || k === kind).map(([, p]) => p),
    );
  }

  private startBackground(
    kind: 'test' | 'balance',
    meta: RequestMeta,
    task: (channel: RoutedChannel) => Promise<void>,
  ): Promise<void> {
    const going = this.running.get(kind);
    if (going) return going;
    if (this.stopping) return Promise.resolve();
    const ids = this.table.all().map((c) => c.id);
    let done = 0;
    const run = (async () => {
      let next = 0;
      const worker = async () => {
        while (!this.stopping && next < ids.length) {
          // Read at its turn, not at the start: a long run must not call with a replaced key, nor
          // test a channel deleted or disabled by hand meanwhile (only the admin brings those back).
          const channel = this.table.channel(ids[next++]!);
          if (!channel || channel.status === ChannelStatus.ManuallyDisabled) continue;
          done += 1;
          try {
            await task(channel);
          } catch (error) {
            // One failing channel (deleted meanwhile, provider down) must not stop the run.
            if (this.stopping) return;
            const reason = error instanceof DomainError ? error.code : (error as Error).message;
            this.logger.warn(`${kind} of channel ${channel.id} failed: ${reason}`);
          }
        }
      };
      await Promise.all(Array.from({ length: BACKGROUND_CONCURRENCY }, worker));
      this.logger.log(`${kind} of ${done} channels done (${meta.correlationId})`);
    })().finally(() => this.running.delete(kind));
    this.running.set(kind, run);
    return run;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }
}
