import { Inject, Injectable, Logger } from '@nestjs/common';
import type { TaskSubmitted } from '@tollgate/domain';
import {
  clientMjAnswer,
  isFollowUp,
  isFreeAction,
  MJ_ACCEPTED_CODES,
  MJ_CODE,
  mjErrorBody,
  mjModelName,
  readMjSubmission,
  upstreamMjBody,
  upstreamMjPath,
} from '@tollgate/relay';
import { type RoutedChannel, TASK_RELAY_PORT, type TaskRelayPort } from '../relay/task-relay-port';
import type { TaskEntry } from './task-directory';
import type { TaskRequest } from './task-request';
import {
  jsonRefusal,
  type TaskAttempt,
  type TaskReply,
  type TaskSubmission,
  type TaskSubmitPlatform,
} from './task-submit-platform';
import {
  parseAnswer,
  TASK_SUBMIT_TIMEOUT_MS,
  TaskUpstream,
  type TaskUpstreamAnswer,
} from './task-upstream';

/** What midjourney-proxy answers a submission with. */
export interface MjAnswer {
  readonly code?: unknown;
  readonly description?: unknown;
  readonly result?: unknown;
  readonly properties?: unknown;
}

interface MjAnswered {
  readonly answer: TaskUpstreamAnswer;
  readonly parsed: MjAnswer;
  readonly code: number;
}

/** Recorded prompts and descriptions are cut to these lengths (new-api's columns). */
const MAX_PROMPT_LENGTH = 4000;
const MAX_DESCRIPTION_LENGTH = 1000;
const MAX_UPSTREAM_ID_LENGTH = 200;

const mjRefusal = (status: number, code: number, description: string): TaskReply =>
  jsonRefusal(status, mjErrorBody(code, description));

/**
 * Midjourney's submissions (new-api's relay-mj.go): one call to the chosen channel's
 * midjourney-proxy, never retried elsewhere; a follow-up acts on the caller's own task, on its
 * channel; a free action (upscale of a variation…) is recorded without a charge.
 */
@Injectable()
export class MjSubmitPlatform implements TaskSubmitPlatform<TaskSubmission, MjAnswered> {
  readonly platform = 'midjourney';
  readonly missingOriginCode = 'task_not_found';
  readonly quotaShortStatus = 400;
  private readonly logger = new Logger(MjSubmitPlatform.name);

  constructor(
    @Inject(TASK_RELAY_PORT) private readonly relay: TaskRelayPort,
    private readonly upstream: TaskUpstream,
  ) {}

  endpointOf(action: string): string {
    return `/mj/submit/${action.toLowerCase()}`;
  }

  read(routeAction: string, request: TaskRequest) {
    const submission = readMjSubmission(routeAction, request.body);
    if ('error' in submission)
      return { refused: mjRefusal(400, MJ_CODE.requestError, submission.error) };
    const { action, originTaskId } = submission;
    return {
      action,
      originTaskId,
      model: mjModelName(action),
      followUp: isFollowUp(routeAction),
      free: isFreeAction(action),
    };
  }

  originRefusal(origin: TaskEntry, routeAction: string): TaskReply | undefined {
    const mustHaveSucceeded =
      this.relay.options().bool('MjActionCheckSuccessEnabled') && routeAction !== 'MODAL';
    return mustHaveSucceeded && origin.status !== 'SUCCESS'
      ? this.refusal(400, 'task_status_not_success')
      : undefined;
  }

  refusal(status: number, code: string): TaskReply {
    return mjRefusal(status, MJ_CODE.requestError, code);
  }

  retriable(): boolean {
    return false;
  }

  async call(
    channel: RoutedChannel,
    submission: TaskSubmission,
    request: TaskRequest,
  ): Promise<TaskAttempt<MjAnswered>> {
    const o = this.relay.options();
    let answer: TaskUpstreamAnswer;
    try {
      answer = await this.upstream.call(channel, upstreamMjPath(request.path), {
        method: 'POST',
        headers: { 'mj-api-secret': channel.key },
        body: upstreamMjBody(request.body, {
          accountFilter: o.bool('MjAccountFilterEnabled'),
          notify: o.bool('MjNotifyEnabled'),
          modeClear: o.bool('MjModeClearEnabled'),
        }),
        timeoutMs: TASK_SUBMIT_TIMEOUT_MS,
      });
    } catch (error) {
      this.logger.warn(`mj submit to channel ${channel.id}: ${String(error)}`);
      const status = 500;
      return {
        ok: false,
        status,
        refusal: mjRefusal(status, MJ_CODE.unknownError, 'do_request_failed'),
      };
    }
    const parsed = parseAnswer(answer.text) as MjAnswer | undefined;
    if (
      answer.status !== 200 ||
      typeof parsed !== 'object' ||
      parsed === null ||
      Array.isArray(parsed)
    ) {
      const status = answer.status >= 400 ? answer.status : 500;
      const description = `fail_to_fetch_midjourney status_code: ${answer.status}`;
      return { ok: false, status, refusal: mjRefusal(status, MJ_CODE.unknownError, description) };
    }
    const code = typeof parsed.code === 'number' ? parsed.code : Number(parsed.code);
    if (code === MJ_CODE.noAccount) this.disableWithoutAccount(channel, parsed, submission.model);
    return { ok: true, answered: { answer, parsed, code } };
  }

  /** The proxy has no Midjourney account left: the channel is disabled when it may be. */
  private disableWithoutAccount(channel: RoutedChannel, answer: MjAnswer, model: string): void {
    if (!channel.autoBan || !this.relay.settings().autoDisable) return;
    const description = typeof answer.description === 'string' ? answer.description : '';
    this.relay
      .disableChannel(
        channel.id,
        `midjourney-proxy: ${description || 'no available account'}`,
        model,
      )
      .catch((error: unknown) => this.logger.warn(`disable channel: ${String(error)}`));
  }

  recorded(
    submission: TaskSubmission,
    answered: MjAnswered,
    channel: RoutedChannel,
    request: TaskRequest,
  ) {
    const task = mjSubmittedTask(request, channel.id, answered.code, answered.parsed, submission);
    return { task, accepted: MJ_ACCEPTED_CODES.has(answered.code) && task.upstreamTaskId !== '' };
  }

  reply(submission: TaskSubmission, { answer }: MjAnswered): TaskReply {
    const body = clientMjAnswer(answer.text, submission.action);
    return { status: answer.status, contentType: answer.contentType, body };
  }
}

/** What a Midjourney submission records (new-api's midjourneys row at submit time). */
export function mjSubmittedTask(
  request: TaskRequest,
  channelId: number,
  code: number,
  answer: MjAnswer,
  submission: Pick<TaskSubmission, 'action' | 'model' | 'originTaskId'>,
): TaskSubmitted['data'] {
  const result: unknown = Array.isArray(answer.result)
    ? (answer.result as unknown[])[0]
    : answer.result;
  const upstreamTaskId =
    typeof result === 'string' || typeof result === 'number'
      ? String(result).slice(0, MAX_UPSTREAM_ID_LENGTH)
      : '';
  const properties =
    typeof answer.properties === 'object' && answer.properties !== null
      ? (answer.properties as Record<string, unknown>)
      : undefined;
  const description = typeof answer.description === 'string' ? answer.description : '';
  const prompt = typeof request.body['prompt'] === 'string' ? request.body['prompt'] : '';
  const state = mjSubmittedState(code, upstreamTaskId, description, properties, submission.action);
  return {
    taskId: request.requestId,
    platform: 'midjourney',
    upstreamTaskId,
    userId: request.caller.user.id,
    tokenId: request.caller.token?.id ?? 0,
    channelId,
    action: submission.action,
    model: submission.model,
    code: state.code,
    prompt: prompt.slice(0, MAX_PROMPT_LENGTH),
    description: description.slice(0, MAX_DESCRIPTION_LENGTH),
    submitTime: Date.now(),
    status: state.status,
    progress: state.progress,
    failReason: state.failReason,
    quota: 0,
    originTaskId: submission.originTaskId,
    imageUrl: state.imageUrl,
    ...(properties ? { properties } : {}),
  };
}

/** The state a submission starts in: failed when refused, finished when it already was. */
function mjSubmittedState(
  code: number,
  upstreamTaskId: string,
  description: string,
  properties: Record<string, unknown> | undefined,
  action: string,
): Pick<TaskSubmitted['data'], 'code' | 'status' | 'progress' | 'failReason' | 'imageUrl'> {
  const started = { code, status: '', progress: '0%', failReason: '', imageUrl: '' };
  if (!MJ_ACCEPTED_CODES.has(code) || upstreamTaskId === '') {
    const failReason = (description || `code ${code}`).slice(0, MAX_DESCRIPTION_LENGTH);
    return { ...started, status: 'FAILURE', progress: '100%', failReason };
  }
  if (code === MJ_CODE.exists && properties?.['status'] === 'SUCCESS') {
    // The task exists and is finished: recorded as a finished submission (new-api).
    const imageUrl = typeof properties['imageUrl'] === 'string' ? properties['imageUrl'] : '';
    return { ...started, code: MJ_CODE.submitted, status: 'SUCCESS', progress: '100%', imageUrl };
  }
  if (action === 'UPLOAD') return { ...started, status: 'SUCCESS', progress: '100%' };
  return started;
}
