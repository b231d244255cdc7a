import type { TaskPlatform, TaskSubmitted } from '@tollgate/domain';
import type { RelayError } from '@tollgate/relay';
import { JSON_CONTENT_TYPE, type RoutedChannel } from '../relay/task-relay-port';
import type { TaskEntry } from './task-directory';
import type { TaskRequest } from './task-request';

/** An answer written as it is: status, content type, body. */
export interface TaskReply {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** A refusal in a platform's JSON error body. */
export function jsonRefusal(status: number, body: string): TaskReply {
  return { status, contentType: JSON_CONTENT_TYPE, body };
}

/** Why a submission stops: in the platform's error shape, or the relay's (key, model, quota). */
export type TaskRefusal = TaskReply | RelayError;

/** What every platform's submission says once read from the client's body. */
export interface TaskSubmission {
  /** The action recorded and billed (`IMAGINE`, `MUSIC`, …). */
  readonly action: string;
  /** The billed model name of the action. */
  readonly model: string;
  /** The earlier task a follow-up acts on ('' for a new task). */
  readonly originTaskId: string;
  /** A follow-up goes to the origin task's channel, and to no other. */
  readonly followUp: boolean;
  /** A free action reserves and charges nothing. */
  readonly free: boolean;
}

/** One upstream call: answered (the platform's reading of it), or refused with this answer. */
export type TaskAttempt<Answered> =
  | { readonly ok: true; readonly answered: Answered }
  | { readonly ok: false; readonly status: number; readonly refusal: TaskReply };

/**
 * What differs between the task platforms on the submit path (task-submit-pipeline.ts runs the
 * steps they share): how a submission is read and refused, how one upstream call goes, what is
 * recorded and what the client gets back.
 */
export interface TaskSubmitPlatform<Submission extends TaskSubmission, Answered> {
  readonly platform: TaskPlatform;
  /** The receipt's endpoint of an action (`/mj/submit/imagine`). */
  endpointOf(action: string): string;
  /** The submission, or the refusal of a malformed one. */
  read(routeAction: string, request: TaskRequest): Submission | { readonly refused: TaskReply };
  /** The refusal code of a follow-up whose origin task the caller does not have. */
  readonly missingOriginCode: string;
  /** The refusal of a follow-up whose origin task is not in a state to follow. */
  originRefusal(origin: TaskEntry, routeAction: string): TaskReply | undefined;
  /** A refusal before the upstream is called, in the platform's error shape. */
  refusal(status: number, code: string): TaskReply;
  /** The status of the refusal when the caller's quota is short. */
  readonly quotaShortStatus: number;
  /** Whether a failed call may be tried again on another channel. */
  retriable(status: number): boolean;
  call(
    channel: RoutedChannel,
    submission: Submission,
    request: TaskRequest,
  ): Promise<TaskAttempt<Answered>>;
  /** What the submission records (its quota set by the pipeline), and whether the upstream took it. */
  recorded(
    submission: Submission,
    answered: Answered,
    channel: RoutedChannel,
    request: TaskRequest,
  ): { readonly task: TaskSubmitted['data']; readonly accepted: boolean };
  /** The client's answer once the task is recorded. */
  reply(submission: Submission, answered: Answered): TaskReply;
}
