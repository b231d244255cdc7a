import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  sameSnapshot,
  snapshotFailed,
  snapshotSucceeded,
  type TaskPlatform,
  type TaskSnapshot,
  type TaskState,
} from '@tollgate/domain';
import { mjSnapshot, mjTaskId, sunoSnapshot, sunoTaskId } from '@tollgate/relay';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { SchedulerGate } from '../infrastructure/scheduler-gate';
import { type RoutedChannel, TASK_RELAY_PORT, type TaskRelayPort } from '../relay/task-relay-port';
import { TaskDirectory } from './task-directory';
import { TASK_POLL_TIMEOUT_MS, TaskUpstream, parseAnswer } from './task-upstream';
import { FailTaskCommand, RecordTaskSnapshotCommand } from './task.commands';

/** new-api asks for at most 500 tasks per call. */
const POLL_BATCH = 500;
const DEFAULT_POLL_INTERVAL_MS = 15_000;
/** A failing channel is asked again after interval × 2^failures, at most this long. */
const MAX_BACKOFF_MS = 10 * 60_000;

/** What the poller remembers of a channel's polling. */
interface ChannelPoll {
  readonly channel_id: number;
  readonly failures: number;
  readonly last_error: string;
  /** Unix ms of the last successful poll (0 = none yet). */
  readonly last_success_at: number;
  /** Unix ms before which the channel is not asked again (backoff). */
  readonly next_poll_at: number;
}

/** What an admin sees of a channel's polling (GET /api/task/poll-status). */
export interface ChannelPollState extends ChannelPoll {
  /** Counted from the task directory when asked. */
  readonly open_tasks: number;
}

type OpenTask = TaskState & { submitTime: number };

/**
 * The background worker of the task relays: every TASK_POLL_INTERVAL_MS it asks each channel for
 * its open tasks in one batched call per platform (midjourney-proxy's list-by-condition, Suno's
 * fetch) and records what changed as events; a task open longer than TASK_TIMEOUT_MINUTES, or
 * whose channel is gone, fails with a refund. The open tasks come from the task directory (the log
 * replayed at start-up), so polling resumes after a restart. A callback's hint polls single tasks
 * the same way (pollTasks). Only these answers record what a task became. Upstream calls are async
 * I/O: the relay's event loop only folds the answers.
 */
@Injectable()
export class TaskPoller implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TaskPoller.name);
  private readonly channels = new Map<number, ChannelPoll>();
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(TASK_RELAY_PORT) private readonly relay: TaskRelayPort,
    private readonly directory: TaskDirectory,
    private readonly upstream: TaskUpstream,
    private readonly bus: CommandBus,
    private readonly gate: SchedulerGate,
  ) {}

  onApplicationBootstrap(): void {
    // In scale-out only the elected process polls (and times tasks out); POST /api/task/poll works anywhere.
    this.gate.whenElected(
      () => this.schedule(),
      () => clearTimeout(this.timer),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.round;
  }

  /** One round now (or the one running); answers when it is done. */
  pollNow(now = Date.now()): Promise<void> {
    this.round ??= this.pollRound(now).finally(() => {
      this.round = undefined;
    });
    return this.round;
  }

  status(): ChannelPollState[] {
    const open = this.directory.openByChannel();
    const ids = new Set([...open.keys(), ...this.channels.keys()]);
    return [...ids]
      .sort((a, b) => a - b)
      .map((id) => ({
        ...(this.channels.get(id) ?? emptyState(id)),
        open_tasks: open.get(id)?.length ?? 0,
      }));
  }

  private schedule(): void {
    const interval = this.config.tasks.pollIntervalMs;
    // Not elected any more: the next win starts the loop again (one loop: the old timer goes).
    clearTimeout(this.timer);
    if (interval <= 0 || this.stopped || !this.gate.mayRun()) return;
    this.timer = setTimeout(() => {
      if (!this.gate.mayRun()) return;
      void this.pollNow()
        .catch((error: unknown) => this.logger.error(`task poll: ${String(error)}`))
        .finally(() => this.schedule());
    }, interval);
    this.timer.unref();
  }

  /**
   * Polls these tasks now, those still open (a callback's hint): one batched call per channel, as a
   * round would, with the same timeout, backoff and failure rules (a channel backing off is not
   * asked). Answers when done.
   */
  async pollTasks(taskIds: readonly string[], now = Date.now()): Promise<void> {
    const byChannel = new Map<number, OpenTask[]>();
    for (const taskId of taskIds) {
      const task = this.directory.openTask(taskId);
      if (!task) continue;
      const list = byChannel.get(task.channelId);
      if (list) list.push(task);
      else byChannel.set(task.channelId, [task]);
    }
    for (const [channelId, tasks] of byChannel) await this.pollChannel(channelId, tasks, now);
  }

  private async pollRound(now: number): Promise<void> {
    for (const [channelId, tasks] of this.directory.openByChannel()) {
      if (this.stopped) return;
      await this.pollChannel(channelId, tasks, now);
    }
  }

  private async pollChannel(
    channelId: number,
    tasks: readonly OpenTask[],
    now: number,
  ): Promise<void> {
    const live = await this.expire(tasks, now);
    if (live.length === 0) return;
    const channel = this.relay.channel(channelId);
    if (!channel) {
      for (const task of live)
        await this.bus.execute(
          new FailTaskCommand(
            task.taskId,
            'channel_missing',
            `获取渠道信息失败，请联系管理员，渠道ID：${channelId}`,
          ),
        );
      return;
    }
    const state = this.channels.get(channelId) ?? emptyState(channelId);
    if (state.next_poll_at > now) return;
    try {
      for (const platform of ['midjourney', 'suno'] as const) {
        const mine = live.filter((task) => task.platform === platform);
        for (let i = 0; i < mine.length; i += POLL_BATCH)
          await this.pollBatch(channel, platform, mine.slice(i, i + POLL_BATCH));
      }
      this.channels.set(channelId, {
        ...state,
        failures: 0,
        last_error: '',
        last_success_at: now,
        next_poll_at: 0,
      });
    } catch (error) {
      const failures = state.failures + 1;
      // With polling by hand only (interval 0) the default interval is the backoff's unit.
      const unit = this.config.tasks.pollIntervalMs || DEFAULT_POLL_INTERVAL_MS;
      const backoff = Math.min(unit * 2 ** failures, MAX_BACKOFF_MS);
      const message = error instanceof Error ? error.message : String(error);
      this.channels.set(channelId, {
        ...state,
        failures,
        last_error: message.slice(0, 300),
        next_poll_at: now + backoff,
      });
      this.logger.warn(`task poll of channel ${channelId} failed (${failures}×): ${message}`);
    }
  }

  /** Fails (and refunds) the tasks open too long; answers the others. */
  private async expire(tasks: readonly OpenTask[], now: number): Promise<OpenTask[]> {
    const limit = this.config.tasks.timeoutMs;
    const live: OpenTask[] = [];
    for (const task of tasks) {
      if (now - task.submitTime > limit) {
        await this.bus.execute(new FailTaskCommand(task.taskId, 'timeout', timeoutReason(limit)));
      } else live.push(task);
    }
    return live;
  }

  private async pollBatch(
    channel: RoutedChannel,
    platform: TaskPlatform,
    tasks: readonly OpenTask[],
  ): Promise<void> {
    const ids = [...new Set(tasks.map((task) => task.upstreamTaskId))];
    const mj = platform === 'midjourney';
    const answer = await this.upstream.call(
      channel,
      mj ? '/mj/task/list-by-condition' : '/suno/fetch',
      {
        method: 'POST',
        headers: mj ? { 'mj-api-secret': channel.key } : { authorization: `Bearer ${channel.key}` },
        body: { ids },
        timeoutMs: TASK_POLL_TIMEOUT_MS,
      },
    );
    if (answer.status !== 200) throw new Error(`upstream status ${answer.status}`);
    const parsed = parseAnswer(answer.text);
    const list = mj ? parsed : (parsed as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(list)) throw new Error('upstream answer is not a task list');
    const byId = new Map<string, TaskSnapshot>();
    for (const item of list) {
      if (typeof item !== 'object' || item === null) continue;
      const dto = item as Record<string, unknown>;
      byId.set(mj ? mjTaskId(dto) : sunoTaskId(dto), mj ? mjSnapshot(dto) : sunoSnapshot(dto));
    }
    for (const task of tasks) {
      const snapshot = byId.get(task.upstreamTaskId);
      // A task the upstream no longer returns stays open until the timeout fails it.
      if (!snapshot) continue;
      // Unchanged (the task carries its folded state): nothing to record, no stream to read.
      if (
        !snapshotFailed(snapshot) &&
        !snapshotSucceeded(snapshot) &&
        sameSnapshot(task.snapshot, snapshot)
      )
        continue;
      await this.bus.execute(new RecordTaskSnapshotCommand(task.taskId, snapshot));
    }
  }
}

/** new-api's wording (`上游任务超时（超过1小时）`), from the configured limit. */
function timeoutReason(limitMs: number): string {
  const minutes = Math.round(limitMs / 60_000);
  const span = minutes > 0 && minutes % 60 === 0 ? `${minutes / 60}小时` : `${minutes}分钟`;
  return `上游任务超时（超过${span}）`;
}

function emptyState(channelId: number): ChannelPoll {
  return {
    channel_id: channelId,
    failures: 0,
    last_error: '',
    last_success_at: 0,
    next_poll_at: 0,
  };
}
