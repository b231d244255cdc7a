import type { ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { ChannelStatus } from '@tollgate/contracts';
import { RelayError } from '@tollgate/relay';
import {
  type RelaySettings,
  type Reservation,
  type RoutedChannel,
  sendBytes,
  sendError,
  TASK_RELAY_PORT,
  type TaskRelayPort,
} from '../relay/task-relay-port';
import { priceTask, type TaskPrice, taskReceipt } from './task-charge';
import { TaskDirectory } from './task-directory';
import type { TaskRequest } from './task-request';
import type {
  TaskAttempt,
  TaskRefusal,
  TaskSubmission,
  TaskSubmitPlatform,
} from './task-submit-platform';
import { TaskSubmitter } from './task-submitter';

/** Where a submission goes: its channel, group and the settings it was priced with. */
interface Routed<Submission> {
  readonly submission: Submission;
  readonly settings: RelaySettings;
  readonly group: string;
  readonly channel: RoutedChannel;
}

type Refused = { readonly refused: TaskRefusal };

/**
 * The one submit path of the task relays (new-api's relay-mj.go and relay_task.go): read the
 * submission, check the model, pick the channel (a follow-up's is its origin task's), reserve the
 * price, call the upstream (on other channels again when the platform allows), then record the
 * task with its charge, or release the reservation when the upstream did not take it.
 */
@Injectable()
export class TaskSubmitPipeline {
  constructor(
    @Inject(TASK_RELAY_PORT) private readonly relay: TaskRelayPort,
    private readonly directory: TaskDirectory,
    private readonly submitter: TaskSubmitter,
  ) {}

  async submit<Submission extends TaskSubmission, Answered>(
    platform: TaskSubmitPlatform<Submission, Answered>,
    routeAction: string,
    request: TaskRequest,
    res: ServerResponse,
  ): Promise<void> {
    const routed = this.route(platform, routeAction, request);
    if ('refused' in routed) return send(res, routed.refused, request.requestId);
    const { submission, settings, group } = routed;
    const price = priceTask(settings, submission.model, group, submission.free);
    const reserved = await this.reserve(platform, price, request);
    if ('refused' in reserved) return send(res, reserved.refused, request.requestId);
    const { attempt, chain } = await this.callUpstream(platform, routed, request);
    if (!attempt.ok) {
      this.submitter.release(reserved.reservation);
      return send(res, attempt.refusal, request.requestId);
    }
    const channel = chain[chain.length - 1] ?? routed.channel;
    const { task, accepted } = platform.recorded(submission, attempt.answered, channel, request);
    const charged = accepted && price.quota > 0;
    const charge = charged
      ? taskReceipt({
          requestId: request.requestId,
          caller: request.caller,
          price,
          model: submission.model,
          channelId: channel.id,
          channelChain: chain.map((tried) => tried.id),
          endpoint: platform.endpointOf(submission.action),
          startedAt: request.startedAt,
          ip: request.ip,
          platform: platform.platform,
          action: submission.action,
          upstreamTaskId: task.upstreamTaskId,
        })
      : undefined;
    const quota = charged ? price.quota : 0;
    await this.submitter.record({ ...task, quota }, charge, reserved.reservation, request);
    send(res, platform.reply(submission, attempt.answered), request.requestId);
  }

  /** The submission read, its model allowed, and the channel it goes to first. */
  private route<Submission extends TaskSubmission, Answered>(
    platform: TaskSubmitPlatform<Submission, Answered>,
    routeAction: string,
    request: TaskRequest,
  ): Routed<Submission> | Refused {
    const { caller, lang } = request;
    const submission = platform.read(routeAction, request);
    if ('refused' in submission) return submission;
    const refused = this.relay.modelRefusal(lang, caller, submission.model);
    if (refused) return { refused };
    const settings = this.relay.settings();
    const group = this.relay.groupOf(caller, settings);
    if (submission.followUp) {
      // A follow-up acts on the caller's own task, on the channel that made it.
      const origin = this.directory.ofOwner(
        platform.platform,
        submission.originTaskId,
        caller.user.id,
      );
      if (!origin) return { refused: platform.refusal(400, platform.missingOriginCode) };
      const originRefused = platform.originRefusal(origin, routeAction);
      if (originRefused) return { refused: originRefused };
      const channel = this.relay.channel(origin.channelId);
      if (!channel || channel.status !== ChannelStatus.Enabled)
        return { refused: platform.refusal(400, 'task_channel_disabled') };
      return { submission, settings, group, channel };
    }
    // The first pick is made before anything is reserved (as the relay).
    const channel = this.relay.pickChannel(caller, group, submission.model);
    if (!channel) return { refused: this.relay.unroutable(lang, caller, group, submission.model) };
    return { submission, settings, group, channel };
  }

  private async reserve<Submission extends TaskSubmission, Answered>(
    platform: TaskSubmitPlatform<Submission, Answered>,
    price: TaskPrice,
    request: TaskRequest,
  ): Promise<{ readonly reservation: Reservation | undefined } | Refused> {
    const reserved = await this.relay.reserve(
      request.requestId,
      request.caller,
      price.quota,
      request.lang,
    );
    if (reserved.ok) return { reservation: reserved.reservation };
    if (reserved.reason === 'budget') return { refused: reserved.error };
    return { refused: platform.refusal(platform.quotaShortStatus, 'quota_not_enough') };
  }

  /**
   * The upstream call, tried again on another channel (up to RetryTimes more) while the platform
   * deems the failure retriable; a follow-up stays on its origin's channel. Answers the last
   * attempt and the channels tried, in order.
   */
  private async callUpstream<Submission extends TaskSubmission, Answered>(
    platform: TaskSubmitPlatform<Submission, Answered>,
    routed: Routed<Submission>,
    request: TaskRequest,
  ): Promise<{ readonly attempt: TaskAttempt<Answered>; readonly chain: RoutedChannel[] }> {
    const { submission, settings, group } = routed;
    const chain: RoutedChannel[] = [];
    let channel: RoutedChannel | undefined = routed.channel;
    for (let retry = 0; ;) {
      chain.push(channel);
      const attempt = await platform.call(channel, submission, request);
      if (attempt.ok || !platform.retriable(attempt.status)) return { attempt, chain };
      if (submission.followUp || ++retry > settings.retryTimes) return { attempt, chain };
      const tried = chain.map((c) => c.id);
      channel = this.relay.pickChannel(request.caller, group, submission.model, retry, tried);
      if (!channel) return { attempt, chain };
    }
  }
}

function send(res: ServerResponse, refusal: TaskRefusal, requestId: string): void {
  if (refusal instanceof RelayError) return sendError(res, refusal, requestId);
  sendBytes(res, refusal.status, refusal.contentType, refusal.body, requestId);
}
