import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { readSunoSubmission, sunoErrorBody, sunoModelName, sunoSubmittedId } from '@tollgate/relay';
import { JSON_CONTENT_TYPE, sendBytes, sendError, sendJson } from '../relay/relay-http';
import {
  type RoutedChannel,
  ROUTING_TABLE_PORT,
  type RoutingTablePort,
} from '../relay/relay-ports';
import { groupFor, modelRefusal, unroutable } from '../relay/relay-routing';
import { RelaySettingsView } from '../relay/relay-settings';
import { type Lang, translate } from '../shared/i18n/messages';
import { TaskLogReader } from './read/task-log.reader';
import { priceTask, taskReceipt } from './task-charge';
import { TaskDirectory } from './task-directory';
import { sunoDto } from './task-dtos';
import { taskIdsOf, type TaskRequest } from './task-request';
import { TaskSubmitter } from './task-submitter';
import { pickTaskChannel } from './task-routing';
import {
  TASK_SUBMIT_TIMEOUT_MS,
  TaskUpstream,
  parseAnswer,
  type TaskUpstreamAnswer,
} from './task-upstream';

/** new-api retries a Suno submission on 429, 307 and 5xx except 504 and 524. */
function retriable(status: number): boolean {
  return status === 429 || status === 307 || (status >= 500 && status !== 504 && status !== 524);
}

type Attempt =
  | { readonly kind: 'answered'; readonly answer: TaskUpstreamAnswer; readonly id: string }
  | {
      readonly kind: 'failed';
      readonly status: number;
      readonly code: string;
      readonly message: string;
    };

/**
 * The Suno relay (new-api's relay_task.go with the suno adaptor, NA §2.1): music and lyrics
 * submissions billed per call, retried on other channels like a relay call, recorded as
 * `task-<id>` streams; a continuation goes to the origin task's channel.
 */
@Injectable()
export class SunoRelay {
  private readonly logger = new Logger(SunoRelay.name);

  constructor(
    private readonly settings: RelaySettingsView,
    @Inject(ROUTING_TABLE_PORT) private readonly routing: RoutingTablePort,
    private readonly directory: TaskDirectory,
    private readonly reader: TaskLogReader,
    private readonly submitter: TaskSubmitter,
    private readonly upstream: TaskUpstream,
  ) {}

  async submit(routeAction: string, request: TaskRequest, res: ServerResponse): Promise<void> {
    const { caller, requestId } = request;
    const fail = (status: number, code: string, message = code) =>
      sendBytes(res, status, JSON_CONTENT_TYPE, sunoErrorBody(code, message), requestId);
    const submission = readSunoSubmission(routeAction, request.body);
    if ('error' in submission) return fail(400, submission.error);
    const { action, originTaskId } = submission;
    const model = sunoModelName(action);
    const refused = modelRefusal(request.lang, caller.token, model);
    if (refused) return sendError(res, refused, requestId);
    const settings = this.settings.current();
    const group = groupFor(caller, caller.token?.group ?? '', settings);
    // A continuation goes to the origin task's channel only; else the first pick, made before
    // anything is reserved (as the relay).
    let channel: RoutedChannel | undefined;
    const continued = originTaskId !== '';
    if (continued) {
      const task = this.directory.ofOwner('suno', originTaskId, caller.user.id);
      if (!task) return fail(400, 'task_not_exist');
      channel = this.routing.channel(task.channelId);
      if (!channel || channel.status !== 1) return fail(400, 'task_channel_disabled');
    } else {
      channel = pickTaskChannel(this.routing, request, group, model);
      if (!channel)
        return sendError(res, unroutable(request.lang, caller, group, model), requestId);
    }
    const price = priceTask(settings, model, group, false);
    const reserved = await this.submitter.reserve(requestId, caller, price.quota, request.lang);
    if (!reserved.ok && reserved.reason === 'budget')
      return sendError(res, reserved.error, requestId);
    if (!reserved.ok) return fail(403, 'quota_not_enough');
    const reservation = reserved.reservation;

    const chain: number[] = [];
    let last: Attempt;
    for (let attempt = 0; ;) {
      chain.push(channel.id);
      last = await this.attempt(channel, action, submission.body, request.lang);
      if (last.kind === 'answered' || !retriable(last.status)) break;
      if (continued || ++attempt > settings.retryTimes) break;
      channel = pickTaskChannel(this.routing, request, group, model, attempt, chain);
      if (!channel) break;
    }
    if (last.kind === 'failed') {
      this.submitter.release(reservation);
      const message =
        last.status === 429
          ? translate('relay.upstream_saturated', {}, request.lang)
          : last.message;
      return fail(last.status, last.code, message);
    }
    const channelId = chain[chain.length - 1] ?? 0;
    const charged = price.quota > 0;
    const charge = charged
      ? taskReceipt({
          requestId,
          caller,
          price,
          model,
          channelId,
          channelChain: chain,
          endpoint: `/suno/submit/${action.toLowerCase()}`,
          startedAt: request.startedAt,
          ip: request.ip,
          platform: 'suno',
          action,
          upstreamTaskId: last.id,
        })
      : undefined;
    await this.submitter.record(
      {
        taskId: requestId,
        platform: 'suno',
        upstreamTaskId: last.id,
        userId: caller.user.id,
        tokenId: caller.token?.id ?? 0,
        channelId,
        action,
        model,
        code: 0,
        prompt: submission.prompt.slice(0, 4000),
        description: '',
        submitTime: Date.now(),
        status: 'NOT_START',
        progress: '0%',
        failReason: '',
        quota: charged ? price.quota : 0,
        originTaskId,
        imageUrl: '',
      },
      charge,
      reservation,
      request,
    );
    // The upstream's answer as it came (new-api).
    sendBytes(res, last.answer.status, last.answer.contentType, last.answer.text, requestId);
  }

  private async attempt(
    channel: RoutedChannel,
    action: string,
    body: Record<string, unknown>,
    lang: Lang,
  ): Promise<Attempt> {
    let answer: TaskUpstreamAnswer;
    try {
      answer = await this.upstream.call(channel, `/suno/submit/${action}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${channel.key}` },
        body,
        timeoutMs: TASK_SUBMIT_TIMEOUT_MS,
      });
    } catch (error) {
      this.logger.warn(`suno submit to channel ${channel.id}: ${String(error)}`);
      return {
        kind: 'failed',
        status: 500,
        code: 'do_request_failed',
        message: translate('relay.task_request_failed', {}, lang),
      };
    }
    const parsed = parseAnswer(answer.text);
    const id = answer.status === 200 ? sunoSubmittedId(parsed) : undefined;
    if (id !== undefined) return { kind: 'answered', answer, id: id.slice(0, 200) };
    const message =
      typeof parsed === 'object' &&
      parsed !== null &&
      typeof (parsed as { message?: unknown }).message === 'string'
        ? (parsed as { message: string }).message
        : `upstream status ${answer.status}`;
    const code =
      typeof parsed === 'object' &&
      parsed !== null &&
      typeof (parsed as { code?: unknown }).code === 'string'
        ? (parsed as { code: string }).code
        : 'fail_to_submit_task';
    return { kind: 'failed', status: answer.status === 200 ? 500 : answer.status, code, message };
  }

  /** POST /suno/fetch `{ids}`: the caller's tasks among them. */
  async fetch(request: TaskRequest, res: ServerResponse): Promise<void> {
    const ids = taskIdsOf(request.body);
    if (!ids)
      return sendBytes(
        res,
        400,
        JSON_CONTENT_TYPE,
        sunoErrorBody('ids_is_invalid', 'ids_is_invalid'),
        request.requestId,
      );
    const rows = await this.reader.sunoByUpstreamIds(request.caller.user.id, ids);
    sendJson(
      res,
      200,
      { code: 'success', message: '', data: rows.map(sunoDto) },
      request.requestId,
    );
  }

  /** GET /suno/fetch/:id. */
  async fetchOne(id: string, request: TaskRequest, res: ServerResponse): Promise<void> {
    const [row] = await this.reader.sunoByUpstreamIds(request.caller.user.id, [id]);
    if (!row)
      return sendBytes(
        res,
        400,
        JSON_CONTENT_TYPE,
        sunoErrorBody('task_not_exist', 'task_not_exist'),
        request.requestId,
      );
    sendJson(res, 200, { code: 'success', message: '', data: sunoDto(row) }, request.requestId);
  }
}
