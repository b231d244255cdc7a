import type { RelayTrace } from '../observability/request-record';
import type { Caller } from '../relay/task-relay-port';
import type { Lang } from '../shared/i18n/messages';
import type { RequestMeta } from '../shared/request-meta';

/** One admitted task call: who bills it and what they sent. */
export interface TaskRequest {
  readonly caller: Caller;
  /** The gateway's own id: the task id, the reservation and the receipt. */
  readonly requestId: string;
  /** The HTTP request's id (the client's X-Request-Id when sent): on the events. */
  readonly correlationId: string;
  /** Read by the request log line and the metrics when the response closed. */
  readonly trace: RelayTrace;
  readonly lang: Lang;
  readonly ip: string;
  /** The client's path without its query (`/mj-fast/mj/submit/imagine`). */
  readonly path: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly startedAt: number;
}

/** The events a task call appends carry its caller and request id. */
export function taskMeta(request: TaskRequest): RequestMeta {
  const user = request.caller.user;
  return {
    actor: { kind: 'user', id: user.id, role: user.role },
    ip: request.ip,
    correlationId: request.correlationId,
    lang: request.lang,
  };
}

/** At most this many ids per fetch (new-api has no bound). */
const MAX_TASK_IDS = 500;

/** The `ids` of a batched fetch (list-by-condition, Suno's fetch), or undefined when malformed. */
export function taskIdsOf(body: Readonly<Record<string, unknown>>): string[] | undefined {
  const ids = body['ids'];
  if (!Array.isArray(ids) || ids.length > MAX_TASK_IDS) return undefined;
  return ids.every((id): id is string => typeof id === 'string') ? ids : undefined;
}
