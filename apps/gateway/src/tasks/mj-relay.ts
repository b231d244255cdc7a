import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { TaskSubmitted } from '@tollgate/domain';
import {
  clientMjAnswer,
  isFreeAction,
  isFollowUp,
  MJ_ACCEPTED_CODES,
  MJ_CODE,
  mjErrorBody,
  mjModelName,
  mjTaskId,
  readMjSubmission,
  upstreamMjBody,
  upstreamMjPath,
} from '@tollgate/relay';
import { OptionsCache } from '../options/options.cache';
import { JSON_CONTENT_TYPE, sendBytes, sendError, sendJson } from '../relay/relay-http';
import {
  RELAY_COMMANDS_PORT,
  type RelayCommandsPort,
  type RoutedChannel,
  ROUTING_TABLE_PORT,
  type RoutingTablePort,
} from '../relay/relay-ports';
import { groupFor, modelRefusal, unroutable } from '../relay/relay-routing';
import { RELAY_OPTIONS_SOURCE, RelaySettingsView } from '../relay/relay-settings';
import { TaskLogReader } from './read/task-log.reader';
import { priceTask, taskReceipt } from './task-charge';
import { TaskDirectory } from './task-directory';
import { midjourneyDto } from './task-dtos';
import { TaskPollHints } from './task-poll-hints';
import { taskIdsOf, type TaskRequest } from './task-request';
import { TaskSubmitter } from './task-submitter';
import { pickTaskChannel } from './task-routing';
import { TASK_SUBMIT_TIMEOUT_MS, TaskUpstream, parseAnswer } from './task-upstream';

interface MjAnswer {
  readonly code?: unknown;
  readonly description?: unknown;
  readonly result?: unknown;
  readonly properties?: unknown;
}

/**
 * The Midjourney relay (new-api's relay-mj.go, NA §2.1): submissions billed per call on the
 * relay's reservation path and recorded as `task-<id>` streams; follow-ups to the origin task's
 * channel; fetches from the task log (own tasks only).
 */
@Injectable()
export class MjRelay {
  private readonly logger = new Logger(MjRelay.name);

  constructor(
    private readonly settings: RelaySettingsView,
    @Inject(RELAY_OPTIONS_SOURCE) private readonly options: () => OptionsCache,
    @Inject(ROUTING_TABLE_PORT) private readonly routing: RoutingTablePort,
    @Inject(RELAY_COMMANDS_PORT) private readonly commands: RelayCommandsPort,
    private readonly directory: TaskDirectory,
    private readonly reader: TaskLogReader,
    private readonly submitter: TaskSubmitter,
    private readonly upstream: TaskUpstream,
    private readonly hints: TaskPollHints,
  ) {}

  async submit(routeAction: string, request: TaskRequest, res: ServerResponse): Promise<void> {
    const { caller, requestId } = request;
    const fail = (status: number, code: number, description: string) =>
      sendBytes(res, status, JSON_CONTENT_TYPE, mjErrorBody(code, description), requestId);
    const submission = readMjSubmission(routeAction, request.body);
    if ('error' in submission) return fail(400, MJ_CODE.requestError, submission.error);
    const { action, originTaskId } = submission;
    const model = mjModelName(action);
    const refused = modelRefusal(request.lang, caller.token, model);
    if (refused) return sendError(res, refused, requestId);
    const settings = this.settings.current();
    const o = this.options();
    const group = groupFor(caller, caller.token?.group ?? '', settings);
    let channel: RoutedChannel | undefined;
    if (isFollowUp(routeAction)) {
      // A follow-up acts on the caller's own task, on the channel that made it.
      const origin = this.directory.ofOwner('midjourney', originTaskId, caller.user.id);
      if (!origin) return fail(400, MJ_CODE.requestError, 'task_not_found');
      if (
        o.bool('MjActionCheckSuccessEnabled') &&
        routeAction !== 'MODAL' &&
        origin.status !== 'SUCCESS'
      )
        return fail(400, MJ_CODE.requestError, 'task_status_not_success');
      channel = this.routing.channel(origin.channelId);
      if (!channel || channel.status !== 1)
        return fail(400, MJ_CODE.requestError, 'task_channel_disabled');
    } else {
      channel = pickTaskChannel(this.routing, request, group, model);
      if (!channel)
        return sendError(res, unroutable(request.lang, caller, group, model), requestId);
    }
    const price = priceTask(settings, model, group, isFreeAction(action));
    const reserved = await this.submitter.reserve(requestId, caller, price.quota, request.lang);
    if (!reserved.ok && reserved.reason === 'budget')
      return sendError(res, reserved.error, requestId);
    if (!reserved.ok) return fail(400, MJ_CODE.requestError, 'quota_not_enough');
    const reservation = reserved.reservation;

    let status: number;
    let text: string;
    let contentType: string;
    try {
      const answer = await this.upstream.call(channel, upstreamMjPath(request.path), {
        method: 'POST',
        headers: { 'mj-api-secret': channel.key },
        body: upstreamMjBody(request.body, {
          accountFilter: o.bool('MjAccountFilterEnabled'),
          notify: o.bool('MjNotifyEnabled'),
          modeClear: o.bool('MjModeClearEnabled'),
        }),
        timeoutMs: TASK_SUBMIT_TIMEOUT_MS,
      });
      ({ status, text, contentType } = answer);
    } catch (error) {
      this.submitter.release(reservation);
      this.logger.warn(`mj submit to channel ${channel.id}: ${String(error)}`);
      return fail(500, MJ_CODE.unknownError, 'do_request_failed');
    }
    const answer = parseAnswer(text) as MjAnswer | undefined;
    if (status !== 200 || typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
      this.submitter.release(reservation);
      return fail(
        status >= 400 ? status : 500,
        MJ_CODE.unknownError,
        `fail_to_fetch_midjourney status_code: ${status}`,
      );
    }
    const code = typeof answer.code === 'number' ? answer.code : Number(answer.code);
    const description = typeof answer.description === 'string' ? answer.description : '';
    if (code === MJ_CODE.noAccount && channel.autoBan && settings.autoDisable) {
      this.commands
        .disableChannel(
          channel.id,
          `midjourney-proxy: ${description || 'no available account'}`,
          model,
        )
        .catch((error: unknown) => this.logger.warn(`disable channel: ${String(error)}`));
    }
    const task = this.submitted(request, channel, code, answer, action, model, originTaskId);
    const accepted = MJ_ACCEPTED_CODES.has(code) && task.upstreamTaskId !== '';
    const charged = accepted && price.quota > 0;
    const charge = charged
      ? taskReceipt({
          requestId,
          caller,
          price,
          model,
          channelId: channel.id,
          channelChain: [channel.id],
          endpoint: `/mj/submit/${action.toLowerCase()}`,
          startedAt: request.startedAt,
          ip: request.ip,
          platform: 'midjourney',
          action,
          upstreamTaskId: task.upstreamTaskId,
        })
      : undefined;
    await this.submitter.record(
      { ...task, quota: charged ? price.quota : 0 },
      charge,
      reservation,
      request,
    );
    sendBytes(res, status, contentType, clientMjAnswer(text, action), requestId);
  }

  /** What a submission records (new-api's midjourneys row at submit time). */
  private submitted(
    request: TaskRequest,
    channel: RoutedChannel,
    code: number,
    answer: MjAnswer,
    action: string,
    model: string,
    originTaskId: string,
  ): TaskSubmitted['data'] {
    const result: unknown = Array.isArray(answer.result)
      ? (answer.result as unknown[])[0]
      : answer.result;
    const upstreamTaskId =
      typeof result === 'string' || typeof result === 'number' ? String(result).slice(0, 200) : '';
    const properties =
      typeof answer.properties === 'object' && answer.properties !== null
        ? (answer.properties as Record<string, unknown>)
        : undefined;
    const description = typeof answer.description === 'string' ? answer.description : '';
    let recordedCode = code;
    let status = '';
    let progress = '0%';
    let failReason = '';
    let imageUrl = '';
    if (!MJ_ACCEPTED_CODES.has(code) || upstreamTaskId === '') {
      failReason = (description || `code ${code}`).slice(0, 1000);
      status = 'FAILURE';
      progress = '100%';
    } else if (code === MJ_CODE.exists && properties?.['status'] === 'SUCCESS') {
      // The task exists and is finished: recorded as a finished submission (new-api).
      recordedCode = MJ_CODE.submitted;
      status = 'SUCCESS';
      progress = '100%';
      imageUrl = typeof properties['imageUrl'] === 'string' ? properties['imageUrl'] : '';
    } else if (action === 'UPLOAD') {
      status = 'SUCCESS';
      progress = '100%';
    }
    const prompt = typeof request.body['prompt'] === 'string' ? request.body['prompt'] : '';
    return {
      taskId: request.requestId,
      platform: 'midjourney',
      upstreamTaskId,
      userId: request.caller.user.id,
      tokenId: request.caller.token?.id ?? 0,
      channelId: channel.id,
      action,
      model,
      code: recordedCode,
      prompt: prompt.slice(0, 4000),
      description: description.slice(0, 1000),
      submitTime: Date.now(),
      status,
      progress,
      failReason,
      quota: 0,
      originTaskId,
      imageUrl,
      ...(properties ? { properties } : {}),
    };
  }

  /** GET /mj/task/:id/fetch: the caller's task, from the task log. */
  async fetch(id: string, request: TaskRequest, res: ServerResponse): Promise<void> {
    const [row] = await this.reader.midjourneyByUpstreamIds(request.caller.user.id, [id]);
    if (!row)
      return sendBytes(
        res,
        400,
        JSON_CONTENT_TYPE,
        mjErrorBody(MJ_CODE.requestError, 'task_no_found'),
        request.requestId,
      );
    sendJson(res, 200, midjourneyDto(row, this.options()), request.requestId);
  }

  /** POST /mj/task/list-by-condition `{ids}`: the caller's tasks among them (`[]` when none). */
  async listByCondition(request: TaskRequest, res: ServerResponse): Promise<void> {
    const ids = taskIdsOf(request.body);
    if (!ids)
      return sendBytes(
        res,
        400,
        JSON_CONTENT_TYPE,
        mjErrorBody(MJ_CODE.requestError, 'ids_is_invalid'),
        request.requestId,
      );
    const rows = await this.reader.midjourneyByUpstreamIds(request.caller.user.id, ids);
    const options = this.options();
    sendJson(
      res,
      200,
      rows.map((row) => midjourneyDto(row, options)),
      request.requestId,
    );
  }

  /** GET /mj/task/:id/image-seed: asked of the channel that made the caller's task. */
  async imageSeed(id: string, request: TaskRequest, res: ServerResponse): Promise<void> {
    const fail = (status: number, code: number, description: string) =>
      sendBytes(res, status, JSON_CONTENT_TYPE, mjErrorBody(code, description), request.requestId);
    const origin = this.directory.ofOwner('midjourney', id, request.caller.user.id);
    if (!origin) return fail(400, MJ_CODE.requestError, 'task_no_found');
    const channel = this.routing.channel(origin.channelId);
    if (!channel) return fail(400, MJ_CODE.requestError, 'task_channel_disabled');
    try {
      const answer = await this.upstream.call(
        channel,
        `/mj/task/${encodeURIComponent(id)}/image-seed`,
        {
          method: 'GET',
          headers: { 'mj-api-secret': channel.key },
          timeoutMs: TASK_SUBMIT_TIMEOUT_MS,
        },
      );
      sendBytes(res, answer.status, answer.contentType, answer.text, request.requestId);
    } catch (error) {
      this.logger.warn(`mj image-seed on channel ${channel.id}: ${String(error)}`);
      fail(500, MJ_CODE.unknownError, 'do_request_failed');
    }
  }

  /**
   * POST /mj/notify: midjourney-proxy's callback, a hint only (TaskPollHints): the caller's own
   * open tasks with that id are polled from their channel now, and only that answer changes them;
   * what the callback says is ignored. The answers are new-api's.
   */
  async notify(request: TaskRequest, res: ServerResponse): Promise<void> {
    const id = mjTaskId(request.body);
    const owned = this.directory
      .withUpstreamId('midjourney', id)
      .filter((entry) => entry.userId === request.caller.user.id);
    if (id === '' || owned.length === 0)
      return sendBytes(
        res,
        400,
        JSON_CONTENT_TYPE,
        mjErrorBody(MJ_CODE.requestError, 'task_no_found'),
        request.requestId,
      );
    await this.hints.hint(owned.map((entry) => entry.taskId));
    sendJson(res, 200, { code: MJ_CODE.submitted, description: 'success' }, request.requestId);
  }
}
