import { FIXED_NOW, spec } from '@tollgate/testing';
import type { RequestRelayed } from '../usage/usage.events';
import { sameSnapshot, taskDecider } from './task.decider';
import type { TaskEvent, TaskSnapshot, TaskSubmitted } from './task.events';

const NOW_S = Math.floor(FIXED_NOW.getTime() / 1000);
const task = (over: Partial<TaskSubmitted['data']> = {}): TaskSubmitted['data'] => ({
  taskId: 'r1',
  platform: 'midjourney',
  upstreamTaskId: '1712345678901234',
  userId: 7,
  tokenId: 3,
  channelId: 2,
  action: 'IMAGINE',
  model: 'mj_imagine',
  code: 1,
  prompt: 'a cat',
  description: '提交成功',
  submitTime: FIXED_NOW.getTime() - 60_000,
  status: '',
  progress: '0%',
  failReason: '',
  quota: 50_000,
  originTaskId: '',
  imageUrl: '',
  ...over,
});
const charge = { requestId: 'r1', userId: 7, tokenId: 3, quota: 50_000 } as RequestRelayed['data'];
const submitted = (over: Partial<TaskSubmitted['data']> = {}): TaskEvent => ({
  type: 'TaskSubmitted',
  data: task(over),
});
const snap = (over: Partial<TaskSnapshot> = {}): TaskSnapshot => ({
  status: 'IN_PROGRESS',
  progress: '45%',
  failReason: '',
  startTime: 1,
  finishTime: 0,
  ...over,
});
/** What every event after the submission names. */
const ref = { taskId: 'r1', userId: 7, platform: 'midjourney' } as const;
const refund = {
  type: 'TaskRefunded',
  data: {
    taskId: 'r1',
    platform: 'midjourney',
    upstreamTaskId: '1712345678901234',
    userId: 7,
    tokenId: 3,
    channelId: 2,
    model: 'mj_imagine',
    quota: 50_000,
    refundedTime: NOW_S,
  },
} as const;

describe('task decider', () => {
  const s = spec(taskDecider);

  it('records a submission with its charge in one decision', () => {
    s.given([])
      .when({ type: 'SubmitTask', task: task(), charge })
      .then([submitted(), { type: 'RequestRelayed', data: charge }]);
  });

  it('records a refused submission without a charge, and a retried submission not at all', () => {
    s.given([])
      .when({ type: 'SubmitTask', task: task({ quota: 0, failReason: 'banned' }), charge })
      .then([submitted({ quota: 0, failReason: 'banned' })]);
    s.given([submitted()]).when({ type: 'SubmitTask', task: task(), charge }).then([]);
  });

  it('records progress only when something changed', () => {
    s.given([submitted()])
      .when({ type: 'RecordTaskSnapshot', snapshot: snap() })
      .then([{ type: 'TaskProgressed', data: { ...ref, snapshot: snap() } }]);
    s.given([submitted(), { type: 'TaskProgressed', data: { ...ref, snapshot: snap() } }])
      .when({ type: 'RecordTaskSnapshot', snapshot: snap({ startTime: 2 }) })
      .then([]);
  });

  it('finishes a succeeded task at 100%', () => {
    const done = snap({ status: 'SUCCESS', progress: '99%', imageUrl: 'http://u/1.png' });
    s.given([submitted()])
      .when({ type: 'RecordTaskSnapshot', snapshot: done })
      .then([{ type: 'TaskSucceeded', data: { ...ref, snapshot: { ...done, progress: '100%' } } }]);
  });

  it('refunds the whole charge with the failure, once', () => {
    const failed = snap({ status: 'FAILURE', progress: '100%', failReason: 'banned' });
    const events = [
      {
        type: 'TaskFailed',
        data: { ...ref, reason: 'banned', cause: 'upstream', snapshot: failed },
      },
      refund,
    ] as TaskEvent[];
    s.given([submitted()]).when({ type: 'RecordTaskSnapshot', snapshot: failed }).then(events);
    s.given([submitted(), ...events])
      .when({ type: 'RecordTaskSnapshot', snapshot: failed })
      .then([]);
    s.given([submitted(), ...events])
      .when({ type: 'FailTask', cause: 'timeout', reason: 'late' })
      .then([]);
  });

  it('treats a failure reason without the FAILURE status as a failure (new-api)', () => {
    const events = s.given([submitted()]);
    events.when({ type: 'RecordTaskSnapshot', snapshot: snap({ failReason: 'nsfw' }) }).then([
      {
        type: 'TaskFailed',
        data: {
          ...ref,
          reason: 'nsfw',
          cause: 'upstream',
          snapshot: snap({ status: 'FAILURE', progress: '100%', failReason: 'nsfw' }),
        },
      },
      refund,
    ]);
  });

  it('times out an open task with a refund, and never a finished one', () => {
    s.given([submitted()])
      .when({ type: 'FailTask', cause: 'timeout', reason: '任务超时' })
      .then([
        {
          type: 'TaskFailed',
          data: {
            ...ref,
            reason: '任务超时',
            cause: 'timeout',
            snapshot: {
              status: 'FAILURE',
              progress: '100%',
              failReason: '任务超时',
              startTime: 0,
              finishTime: FIXED_NOW.getTime(),
              imageUrl: '',
              description: '提交成功',
            },
          },
        },
        refund,
      ]);
    s.given([submitted({ status: 'SUCCESS', progress: '100%' })])
      .when({ type: 'FailTask', cause: 'timeout', reason: 'late' })
      .then([]);
  });

  it('does not refund an uncharged failure', () => {
    s.given([submitted({ quota: 0 })])
      .when({ type: 'FailTask', cause: 'channel_missing', reason: 'gone' })
      .then([expect.objectContaining({ type: 'TaskFailed' })]);
  });

  it('names the owner and the platform on every event after the submission', () => {
    const suno = { ...ref, platform: 'suno' } as const;
    s.given([submitted({ platform: 'suno', userId: 7 })])
      .when({ type: 'RecordTaskSnapshot', snapshot: snap() })
      .then([{ type: 'TaskProgressed', data: { ...suno, snapshot: snap() } }]);
    s.given([submitted({ platform: 'suno', quota: 0 })])
      .when({ type: 'FailTask', cause: 'timeout', reason: 'late' })
      .then([
        {
          type: 'TaskFailed',
          data: expect.objectContaining({ ...suno, cause: 'timeout' }) as Extract<
            TaskEvent,
            { type: 'TaskFailed' }
          >['data'],
        },
      ]);
  });
});

describe('sameSnapshot', () => {
  it('ignores the times and notices the fields worth an event', () => {
    expect(sameSnapshot(snap(), snap({ startTime: 9, finishTime: 9 }))).toBe(true);
    expect(sameSnapshot(snap(), snap({ progress: '50%' }))).toBe(false);
    expect(sameSnapshot(snap(), snap({ imageUrl: 'http://u/1.png' }))).toBe(false);
    expect(sameSnapshot(snap({ data: [{ id: 1 }] }), snap({ data: [{ id: 1 }] }))).toBe(true);
  });
});
