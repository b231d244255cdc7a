import { MJ_CODE } from '@tollgate/relay';
import { newRelayTrace } from '../observability/request-record';
import type { Caller } from '../relay/task-relay-port';
import { mjSubmittedTask } from './mj-submit';
import type { TaskRequest } from './task-request';

const request = (body: Record<string, unknown> = { prompt: 'a cat' }): TaskRequest => ({
  caller: { user: { id: 7 }, token: { id: 3 } } as unknown as Caller,
  requestId: 'req-1',
  correlationId: 'corr-1',
  trace: newRelayTrace(3),
  lang: 'en',
  ip: '127.0.0.1',
  path: '/mj/submit/imagine',
  body,
  startedAt: 0,
});

const imagine = { action: 'IMAGINE', model: 'mj_imagine', originTaskId: '' };

describe('mjSubmittedTask: what a Midjourney submission records from the proxy answer', () => {
  it('records an accepted submission as started, under the upstream id', () => {
    // Given the proxy took the task
    const answer = { code: MJ_CODE.submitted, description: 'ok', result: 'up-1' };
    // When the submission is recorded
    const task = mjSubmittedTask(request(), 2, MJ_CODE.submitted, answer, imagine);
    // Then it is open, on channel 2, for the caller
    expect(task).toMatchObject({
      taskId: 'req-1',
      upstreamTaskId: 'up-1',
      userId: 7,
      tokenId: 3,
      channelId: 2,
      code: MJ_CODE.submitted,
      prompt: 'a cat',
      status: '',
      progress: '0%',
      failReason: '',
    });
  });

  it('records a refused submission as failed, with the proxy description as its reason', () => {
    const answer = { code: MJ_CODE.banned, description: 'banned prompt' };
    const task = mjSubmittedTask(request(), 2, MJ_CODE.banned, answer, imagine);
    expect(task).toMatchObject({
      status: 'FAILURE',
      progress: '100%',
      failReason: 'banned prompt',
    });
  });

  it('records an existing finished task as a finished submission with its image', () => {
    // Given the proxy answers "exists" for a task it already finished
    const properties = { status: 'SUCCESS', imageUrl: 'https://cdn/x.png' };
    const answer = { code: MJ_CODE.exists, result: 'up-1', properties };
    // When recorded
    const task = mjSubmittedTask(request(), 2, MJ_CODE.exists, answer, imagine);
    // Then as submitted and done
    expect(task).toMatchObject({
      code: MJ_CODE.submitted,
      status: 'SUCCESS',
      progress: '100%',
      imageUrl: 'https://cdn/x.png',
      properties,
    });
  });

  it('records an accepted upload as finished at once', () => {
    const upload = { action: 'UPLOAD', model: 'mj_upload', originTaskId: '' };
    const answer = { code: MJ_CODE.submitted, result: ['up-2'] };
    const task = mjSubmittedTask(request({}), 2, MJ_CODE.submitted, answer, upload);
    expect(task).toMatchObject({ upstreamTaskId: 'up-2', status: 'SUCCESS', prompt: '' });
  });
});
