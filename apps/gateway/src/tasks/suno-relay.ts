import type { ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import { sunoErrorBody } from '@tollgate/relay';
import { JSON_CONTENT_TYPE, sendBytes, sendJson } from '../relay/task-relay-port';
import { TaskLogReader } from './read/task-log.reader';
import { SunoSubmitPlatform } from './suno-submit';
import { sunoDto } from './task-dtos';
import { taskIdsOf, type TaskRequest } from './task-request';
import { TaskSubmitPipeline } from './task-submit-pipeline';

/**
 * The Suno relay (new-api's relay_task.go with the suno adaptor): music and lyrics submissions
 * billed per call and recorded as `task-<id>` streams (suno-submit.ts); fetches from the task log
 * (own tasks only).
 */
@Injectable()
export class SunoRelay {
  constructor(
    private readonly reader: TaskLogReader,
    private readonly pipeline: TaskSubmitPipeline,
    private readonly submission: SunoSubmitPlatform,
  ) {}

  submit(routeAction: string, request: TaskRequest, res: ServerResponse): Promise<void> {
    return this.pipeline.submit(this.submission, routeAction, request, res);
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
