import { FIXED_NOW, spec } from '@tollgate/testing';
import { evolveTask, initialTaskState, taskDecider, type TaskCommand } from './task.decider';
import type { TaskImported, TaskSnapshot } from './task.events';

const NOW_S = Math.floor(FIXED_NOW.getTime() / 1000);
const facts = (over: Partial<TaskImported['data']> = {}): TaskImported['data'] => ({
  taskId: 'newapi-mj-3',
  platform: 'midjourney',
  upstreamTaskId: '1712345678901234',
  userId: 7,
  tokenId: 0,
  channelId: 2,
  action: 'IMAGINE',
  model: 'mj_imagine',
  code: 1,
  quota: 50_000,
  status: 'IN_PROGRESS',
  progress: '45%',
  failReason: '',
  submitTime: 1_712_345_678_901,
  startTime: 1_712_345_679_000,
  finishTime: 0,
  prompt: 'a cat',
  promptEn: 'a cat',
  description: '提交成功',
  state: '',
  imageUrl: '',
  source: {
    project: 'new-api',
    table: 'midjourneys',
    rowId: 3,
    importedAt: '2026-01-15T08:00:00Z',
  },
  ...over,
});
const importTask = (over: Partial<TaskImported['data']> = {}): TaskCommand => ({
  type: 'ImportTask',
  task: facts(over),
});
const imported = (over: Partial<TaskImported['data']> = {}): TaskImported => ({
  type: 'TaskImported',
  data: facts(over),
});
const snap = (over: Partial<TaskSnapshot> = {}): TaskSnapshot => ({
  status: 'IN_PROGRESS',
  progress: '60%',
  failReason: '',
  startTime: 1_712_345_679_000,
  finishTime: 0,
  ...over,
});
const ref = { taskId: 'newapi-mj-3', userId: 7, platform: 'midjourney' as const };

describe('taskDecider ImportTask', () => {
  it('records the row as the source had it', () => {
    spec(taskDecider).given([]).when(importTask()).then([imported()]);
  });

  it('decides nothing when the stream holds the task already (a rerun)', () => {
    spec(taskDecider).given([imported()]).when(importTask()).then([]);
  });

  it('decides nothing on a stream a live submission holds', () => {
    spec(taskDecider)
      .given([
        {
          type: 'TaskSubmitted',
          data: {
            ...facts(),
            originTaskId: '',
          },
        },
      ])
      .when(importTask())
      .then([]);
  });

  it('an open imported task records what the upstream says next', () => {
    spec(taskDecider)
      .given([imported()])
      .when({ type: 'RecordTaskSnapshot', snapshot: snap() })
      .then([{ type: 'TaskProgressed', data: { ...ref, snapshot: snap() } }]);
  });

  it('an open imported task that then fails is refunded what the source charged, once', () => {
    const failed = snap({ status: 'FAILURE', progress: '100%', failReason: 'banned' });
    spec(taskDecider)
      .given([imported()])
      .when({ type: 'RecordTaskSnapshot', snapshot: failed })
      .then([
        {
          type: 'TaskFailed',
          data: { ...ref, reason: 'banned', cause: 'upstream', snapshot: failed },
        },
        {
          type: 'TaskRefunded',
          data: {
            taskId: 'newapi-mj-3',
            platform: 'midjourney',
            upstreamTaskId: '1712345678901234',
            userId: 7,
            tokenId: 0,
            channelId: 2,
            model: 'mj_imagine',
            quota: 50_000,
            refundedTime: NOW_S,
          },
        },
      ]);
  });

  it('an open imported task that succeeds is terminal, with nothing refunded', () => {
    const done = snap({ status: 'SUCCESS', progress: '100%', imageUrl: 'https://cdn/x.png' });
    spec(taskDecider)
      .given([imported()])
      .when({ type: 'RecordTaskSnapshot', snapshot: done })
      .then([{ type: 'TaskSucceeded', data: { ...ref, snapshot: done } }]);
  });

  it.each<[string, Partial<TaskImported['data']>]>([
    ['a succeeded', { status: 'SUCCESS', progress: '100%' }],
    ['a failed', { status: 'FAILURE', progress: '100%', failReason: 'banned' }],
    ['a finished (100%) unknown-status', { status: 'CANCEL', progress: '100%' }],
  ])('%s imported task decides nothing more (never refunded here)', (_what, over) => {
    const failure = snap({ status: 'FAILURE', progress: '100%', failReason: 'x' });
    spec(taskDecider)
      .given([imported(over)])
      .when({ type: 'RecordTaskSnapshot', snapshot: failure })
      .then([]);
    spec(taskDecider)
      .given([imported(over)])
      .when({ type: 'FailTask', cause: 'timeout', reason: 'late' })
      .then([]);
  });

  it('a Suno task folds its times back to seconds, its clips into the snapshot', () => {
    const state = evolveTask(
      initialTaskState,
      imported({
        platform: 'suno',
        taskId: 'newapi-task-9',
        upstreamTaskId: 'suno-uuid',
        action: 'MUSIC',
        model: 'suno_music',
        startTime: 1_712_345_000_000,
        finishTime: 1_712_345_100_000,
        data: [{ id: 'clip-1' }],
      }),
    );
    expect(state).toMatchObject({
      exists: true,
      phase: 'open',
      platform: 'suno',
      quota: 50_000,
      snapshot: { startTime: 1_712_345_000, finishTime: 1_712_345_100, data: [{ id: 'clip-1' }] },
    });
  });
});
