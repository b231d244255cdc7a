import { Injectable, Logger } from '@nestjs/common';
import { readSunoSubmission, sunoErrorBody, sunoModelName, sunoSubmittedId } from '@tollgate/relay';
import type { RoutedChannel } from '../relay/task-relay-port';
import { type Lang, translate } from '../shared/i18n/messages';
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

interface SunoTaskSubmission extends TaskSubmission {
  /** The body the upstream sees. */
  readonly body: Record<string, unknown>;
  readonly prompt: string;
}

interface SunoAnswered {
  readonly answer: TaskUpstreamAnswer;
  /** The upstream's task id. */
  readonly id: string;
}

const HTTP_OK = 200;
const TOO_MANY_REQUESTS = 429;
const SERVER_ERROR = 500;
/** Recorded prompts and upstream ids are cut to these lengths (new-api's columns). */
const MAX_PROMPT_LENGTH = 4000;
const MAX_UPSTREAM_ID_LENGTH = 200;

/** new-api retries a Suno submission on 429, 307 and 5xx except 504 and 524. */
export function sunoRetriable(status: number): boolean {
  return status === 429 || status === 307 || (status >= 500 && status !== 504 && status !== 524);
}

const sunoRefusal = (status: number, code: string, message = code, lang?: Lang): TaskReply =>
  jsonRefusal(
    status,
    sunoErrorBody(code, message, lang && translate('relay.task_request_failed', {}, lang)),
  );

/**
 * Suno's submissions (new-api's relay_task.go with the suno adaptor): music and lyrics, retried
 * on other channels like a relay call; a continuation goes to its origin task's channel only.
 */
@Injectable()
export class SunoSubmitPlatform implements TaskSubmitPlatform<SunoTaskSubmission, SunoAnswered> {
  readonly platform = 'suno';
  readonly missingOriginCode = 'task_not_exist';
  readonly quotaShortStatus = 403;
  private readonly logger = new Logger(SunoSubmitPlatform.name);

  constructor(private readonly upstream: TaskUpstream) {}

  endpointOf(action: string): string {
    return `/suno/submit/${action.toLowerCase()}`;
  }

  read(routeAction: string, request: TaskRequest) {
    const submission = readSunoSubmission(routeAction, request.body);
    if ('error' in submission) return { refused: sunoRefusal(400, submission.error) };
    const { action, originTaskId, body, prompt } = submission;
    const model = sunoModelName(action);
    return {
      action,
      originTaskId,
      model,
      followUp: originTaskId !== '',
      free: false,
      body,
      prompt,
    };
  }

  originRefusal(): undefined {
    return undefined;
  }

  refusal(status: number, code: string): TaskReply {
    return sunoRefusal(status, code);
  }

  retriable(status: number): boolean {
    return sunoRetriable(status);
  }

  async call(
    channel: RoutedChannel,
    submission: SunoTaskSubmission,
    request: TaskRequest,
  ): Promise<TaskAttempt<SunoAnswered>> {
    let answer: TaskUpstreamAnswer;
    try {
      answer = await this.upstream.call(channel, `/suno/submit/${submission.action}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${channel.key}` },
        body: submission.body,
        timeoutMs: TASK_SUBMIT_TIMEOUT_MS,
      });
    } catch (error) {
      this.logger.warn(`suno submit to channel ${channel.id}: ${String(error)}`);
      const message = translate('relay.task_request_failed', {}, request.lang);
      return failed(SERVER_ERROR, 'do_request_failed', message, request.lang);
    }
    const parsed = parseAnswer(answer.text);
    const id = answer.status === HTTP_OK ? sunoSubmittedId(parsed) : undefined;
    if (id !== undefined)
      return { ok: true, answered: { answer, id: id.slice(0, MAX_UPSTREAM_ID_LENGTH) } };
    const status = answer.status === HTTP_OK ? SERVER_ERROR : answer.status;
    const message = stringField(parsed, 'message') ?? `upstream status ${answer.status}`;
    const code = stringField(parsed, 'code') ?? 'fail_to_submit_task';
    return failed(status, code, message, request.lang);
  }

  recorded(
    submission: SunoTaskSubmission,
    { id }: SunoAnswered,
    channel: RoutedChannel,
    request: TaskRequest,
  ) {
    const task = {
      taskId: request.requestId,
      platform: 'suno' as const,
      upstreamTaskId: id,
      userId: request.caller.user.id,
      tokenId: request.caller.token?.id ?? 0,
      channelId: channel.id,
      action: submission.action,
      model: submission.model,
      code: 0,
      prompt: submission.prompt.slice(0, MAX_PROMPT_LENGTH),
      description: '',
      submitTime: Date.now(),
      status: 'NOT_START',
      progress: '0%',
      failReason: '',
      quota: 0,
      originTaskId: submission.originTaskId,
      imageUrl: '',
    };
    return { task, accepted: true };
  }

  /** The upstream's answer as it came (new-api). */
  reply(_submission: SunoTaskSubmission, { answer }: SunoAnswered): TaskReply {
    return { status: answer.status, contentType: answer.contentType, body: answer.text };
  }
}

/** A failed attempt; its refusal is the client's answer when it is the last (429: saturated). */
function failed(status: number, code: string, message: string, lang: Lang): TaskAttempt<never> {
  const shown =
    status === TOO_MANY_REQUESTS ? translate('relay.upstream_saturated', {}, lang) : message;
  return { ok: false, status, refusal: sunoRefusal(status, code, shown, lang) };
}

/** A string field of a JSON object answer, if it has one. */
function stringField(parsed: unknown, key: string): string | undefined {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const value = (parsed as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}
