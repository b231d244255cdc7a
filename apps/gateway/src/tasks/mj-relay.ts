import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MJ_CODE, mjErrorBody, mjTaskId } from '@tollgate/relay';
import {
  JSON_CONTENT_TYPE,
  sendBytes,
  sendJson,
  TASK_RELAY_PORT,
  type TaskRelayPort,
} from '../relay/task-relay-port';
import { TaskLogReader } from './read/task-log.reader';
import { MjSubmitPlatform } from './mj-submit';
import { TaskDirectory } from './task-directory';
import { midjourneyDto } from './task-dtos';
import { TaskPollHints } from './task-poll-hints';
import { taskIdsOf, type TaskRequest } from './task-request';
import { TaskSubmitPipeline } from './task-submit-pipeline';
import { TASK_SUBMIT_TIMEOUT_MS, TaskUpstream } from './task-upstream';

/**
 * The Midjourney relay (new-api's relay-mj.go): submissions billed per call on the relay's
 * reservation path and recorded as `task-<id>` streams (mj-submit.ts); follow-ups to the origin
 * task's channel; fetches from the task log (own tasks only).
 */
@Injectable()
export class MjRelay {
  private readonly logger = new Logger(MjRelay.name);

  constructor(
    @Inject(TASK_RELAY_PORT) private readonly relay: TaskRelayPort,
    private readonly directory: TaskDirectory,
    private readonly reader: TaskLogReader,
    private readonly pipeline: TaskSubmitPipeline,
    private readonly submission: MjSubmitPlatform,
    private readonly upstream: TaskUpstream,
    private readonly hints: TaskPollHints,
  ) {}

  submit(routeAction: string, request: TaskRequest, res: ServerResponse): Promise<void> {
    return this.pipeline.submit(this.submission, routeAction, request, res);
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
    sendJson(res, 200, midjourneyDto(row, this.relay.options()), request.requestId);
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
    const options = this.relay.options();
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
    const channel = this.relay.channel(origin.channelId);
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
