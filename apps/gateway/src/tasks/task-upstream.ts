import { Inject, Injectable } from '@nestjs/common';
import { channelScrubber } from '@tollgate/relay';
import {
  headerText,
  readBounded,
  type RoutedChannel,
  TASK_RELAY_PORT,
  type TaskRelayPort,
} from '../relay/task-relay-port';

/** new-api's timeouts: 60 s for a submission, 15 s for a poll. */
export const TASK_SUBMIT_TIMEOUT_MS = 60_000;
export const TASK_POLL_TIMEOUT_MS = 15_000;
/** Task answers are small JSON; anything larger is an upstream gone wrong. */
const MAX_TASK_ANSWER_BYTES = 4 * 1024 * 1024;

export interface TaskUpstreamAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

/** The channel a task call goes to: its base URL (may carry a path prefix) and its key. */
export type TaskChannel = Pick<RoutedChannel, 'type' | 'key' | 'baseUrl'>;

/**
 * Calls a task upstream (midjourney-proxy, Suno) through the relay's keep-alive pools. The answer
 * is read whole, bounded, with the channel's key masked (a proxy may quote it in an error, a
 * description or a fail reason, which the client reads and the task events keep). Throws on
 * transport errors.
 */
@Injectable()
export class TaskUpstream {
  constructor(@Inject(TASK_RELAY_PORT) private readonly relay: TaskRelayPort) {}

  async call(
    channel: TaskChannel,
    path: string,
    init: {
      readonly method: 'GET' | 'POST';
      readonly headers: Record<string, string>;
      readonly body?: unknown;
      readonly timeoutMs: number;
    },
  ): Promise<TaskUpstreamAnswer> {
    const url = new URL(channel.baseUrl.replace(/\/+$/, '') + path);
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    const answer = await this.relay.upstreamPool(url.origin).request({
      method: init.method,
      path: url.pathname + url.search,
      headers: {
        accept: 'application/json',
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(payload === undefined ? {} : { body: payload }),
      headersTimeout: init.timeoutMs,
      bodyTimeout: init.timeoutMs,
      signal: AbortSignal.timeout(init.timeoutMs),
    });
    const secrets = channelScrubber(channel);
    const text = secrets.text(await readBounded(answer.body, MAX_TASK_ANSWER_BYTES));
    return {
      status: answer.statusCode,
      contentType: secrets.text(headerText(answer.headers['content-type'])) || 'application/json',
      text,
    };
  }
}

/** The JSON of a text (an upstream answer, a stored column), or undefined when it is not JSON. */
export function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
