import type { EventStore } from '@tollgate/event-store';
import { applyEvents, type ProjectionHost, type ReadStore } from '@tollgate/read-store';
import {
  taskStreamId,
  type TaskEvent,
  type TaskSnapshot,
  type TaskSubmitted,
} from '@tollgate/domain';
import { appendEvents } from '@tollgate/testing/append-events';
import { closeProjectionHost, openProjectionHost } from '@tollgate/testing/projection-host';
import { recordedEvent } from '@tollgate/testing/recorded-event';
import {
  MIDJOURNEYS,
  SUNO_TASKS,
  type MidjourneyDocument,
  type SunoTaskDocument,
} from './task-log.documents';
import { taskLogProjection } from './task-log.projection';
import { pushesFor } from '../../realtime/change-topics';

const meta = {
  schemaVersion: 1,
  actor: { kind: 'system', id: null, role: null },
  occurredAt: '2026-01-15T08:00:00.000Z',
};
const AT = Date.parse(meta.occurredAt) / 1000;

function submitted(
  taskId: string,
  over: Partial<TaskSubmitted['data']> = {},
): Extract<TaskEvent, { type: 'TaskSubmitted' }> {
  return {
    type: 'TaskSubmitted',
    data: {
      taskId,
      platform: 'midjourney',
      upstreamTaskId: `mj-${taskId}`,
      userId: 7,
      tokenId: 3,
      channelId: 2,
      action: 'IMAGINE',
      model: 'mj_imagine',
      code: 1,
      prompt: 'a cat',
      description: '提交成功',
      submitTime: 1_712_345_678_901,
      status: 'SUBMITTED',
      progress: '0%',
      failReason: '',
      quota: 50_000,
      originTaskId: '',
      imageUrl: '',
      properties: { numberOfQueues: 1 },
      ...over,
    },
  };
}

/** What every event after the submission names. */
const ref = (taskId: string, platform: 'midjourney' | 'suno' = 'midjourney') => ({
  taskId,
  userId: 7,
  platform,
});

const snapshot = (over: Partial<TaskSnapshot> = {}): TaskSnapshot => ({
  status: 'IN_PROGRESS',
  progress: '45%',
  failReason: '',
  startTime: 1_712_345_679_901,
  finishTime: 0,
  ...over,
});

describe('task-log projection', () => {
  let events: EventStore;
  let read: ReadStore;
  let host: ProjectionHost;

  beforeEach(async () => {
    ({ events, read, host } = await openProjectionHost([taskLogProjection]));
  });
  afterEach(() => closeProjectionHost({ events, read, host }));

  async function append(taskId: string, list: TaskEvent[]) {
    const result = await appendEvents(events, taskStreamId(taskId), list, meta);
    expect(await host.waitFor(result.position, 2000)).toBe(true);
    return result;
  }
  const mj = (taskId: string) => read.collection<MidjourneyDocument>(MIDJOURNEYS).get(taskId);
  const suno = (taskId: string) => read.collection<SunoTaskDocument>(SUNO_TASKS).get(taskId);

  it('a Midjourney submission is a drawing-log row keyed by its task, id = its position', async () => {
    const result = await append('t1', [submitted('t1')]);
    expect(await mj('t1')).toEqual({
      _id: 't1',
      task_key: 't1',
      source_position: Number(result.position.commit),
      id: Number(result.position.commit),
      code: 1,
      user_id: 7,
      action: 'IMAGINE',
      mj_id: 'mj-t1',
      prompt: 'a cat',
      prompt_en: '',
      description: '提交成功',
      state: '',
      submit_time: 1_712_345_678_901,
      start_time: 0,
      finish_time: 0,
      image_url: '',
      status: 'SUBMITTED',
      progress: '0%',
      fail_reason: '',
      channel_id: 2,
      quota: 50_000,
      refund_quota: 0,
      buttons: '',
      properties: '{"numberOfQueues":1}',
    });
    expect(await suno('t1')).toBeNull();
  });

  it('an imported task is a row as the source had it; a later poll updates it', async () => {
    const source = {
      project: 'new-api' as const,
      table: 'midjourneys',
      rowId: 3,
      importedAt: '2026-01-15T08:00:00Z',
    };
    const imported = (taskId: string, platform: 'midjourney' | 'suno'): TaskEvent => ({
      type: 'TaskImported',
      data: {
        taskId,
        platform,
        upstreamTaskId: `up-${taskId}`,
        userId: 7,
        tokenId: 0,
        channelId: 2,
        action: platform === 'suno' ? 'MUSIC' : 'IMAGINE',
        model: platform === 'suno' ? 'suno_music' : 'mj_imagine',
        code: platform === 'suno' ? 0 : 1,
        quota: 50_000,
        status: 'IN_PROGRESS',
        progress: '45%',
        failReason: '',
        submitTime: 1_712_345_678_000,
        startTime: 1_712_345_679_000,
        finishTime: 0,
        prompt: 'a cat',
        promptEn: 'a cat, en',
        description: '提交成功',
        state: 's',
        imageUrl: 'https://cdn.example/x.png',
        buttons: [{ customId: 'MJ::JOB::upsample::1::u' }],
        properties: { finalPrompt: 'a cat' },
        ...(platform === 'suno'
          ? { data: [{ id: 'clip-1' }], createdAt: 1_712_345_600, updatedAt: 1_712_345_700 }
          : {}),
        source: platform === 'suno' ? { ...source, table: 'tasks' } : source,
      },
    });
    const result = await append('newapi-mj-3', [imported('newapi-mj-3', 'midjourney')]);
    expect(await mj('newapi-mj-3')).toMatchObject({
      id: Number(result.position.commit),
      mj_id: 'up-newapi-mj-3',
      user_id: 7,
      channel_id: 2,
      prompt_en: 'a cat, en',
      state: 's',
      submit_time: 1_712_345_678_000,
      start_time: 1_712_345_679_000,
      image_url: 'https://cdn.example/x.png',
      status: 'IN_PROGRESS',
      progress: '45%',
      quota: 50_000,
      buttons: '[{"customId":"MJ::JOB::upsample::1::u"}]',
      properties: '{"finalPrompt":"a cat"}',
    });
    await append('newapi-task-4', [imported('newapi-task-4', 'suno')]);
    expect(await suno('newapi-task-4')).toMatchObject({
      task_id: 'up-newapi-task-4',
      created_at: 1_712_345_600,
      updated_at: 1_712_345_700,
      submit_time: 1_712_345_678,
      start_time: 1_712_345_679,
      data: [{ id: 'clip-1' }],
      quota: 50_000,
    });
    await append('newapi-task-4', [
      {
        type: 'TaskFailed',
        data: {
          ...ref('newapi-task-4', 'suno'),
          reason: 'content policy',
          cause: 'upstream',
          snapshot: snapshot({ status: 'FAILURE', progress: '100%', failReason: 'content policy' }),
        },
      },
    ]);
    expect(await suno('newapi-task-4')).toMatchObject({
      status: 'FAILURE',
      fail_reason: 'content policy',
      data: [{ id: 'clip-1' }],
    });
  });

  it('progress and success copy the snapshot: image, prompt_en, buttons and properties as JSON text', async () => {
    await append('t2', [submitted('t2')]);
    await append('t2', [{ type: 'TaskProgressed', data: { ...ref('t2'), snapshot: snapshot() } }]);
    expect(await mj('t2')).toMatchObject({
      status: 'IN_PROGRESS',
      progress: '45%',
      start_time: 1_712_345_679_901,
      description: '提交成功',
    });
    const buttons = [{ customId: 'MJ::JOB::upsample::1::u', label: 'U1', type: 2, style: 2 }];
    await append('t2', [
      {
        type: 'TaskSucceeded',
        data: {
          ...ref('t2'),
          snapshot: snapshot({
            status: 'SUCCESS',
            progress: '100%',
            finishTime: 1_712_345_699_000,
            imageUrl: 'http://upstream/img/1.png',
            promptEn: 'a cat',
            description: '/imagine a cat',
            state: 's',
            buttons,
            properties: { finalPrompt: 'a cat' },
          }),
        },
      },
    ]);
    expect(await mj('t2')).toMatchObject({
      status: 'SUCCESS',
      progress: '100%',
      finish_time: 1_712_345_699_000,
      image_url: 'http://upstream/img/1.png',
      prompt_en: 'a cat',
      description: '/imagine a cat',
      state: 's',
      buttons: JSON.stringify(buttons),
      properties: '{"finalPrompt":"a cat"}',
    });
  });

  it('a Suno task counts seconds, keeps its clips and the refund', async () => {
    const first = await append('s1', [
      submitted('s1', {
        platform: 'suno',
        upstreamTaskId: 'suno-1',
        action: 'MUSIC',
        model: 'suno_music',
        code: 0,
        properties: undefined,
      }),
    ]);
    const clips = [{ id: 'clip1', status: 'streaming', audio_url: '' }];
    await append('s1', [
      {
        type: 'TaskProgressed',
        data: {
          ...ref('s1', 'suno'),
          snapshot: snapshot({ startTime: 1_712_345_680, data: clips }),
        },
      },
    ]);
    await append('s1', [
      {
        type: 'TaskFailed',
        data: {
          ...ref('s1', 'suno'),
          reason: 'content policy',
          cause: 'upstream',
          snapshot: snapshot({
            status: 'FAILURE',
            progress: '100%',
            failReason: 'content policy',
            startTime: 1_712_345_680,
            finishTime: 1_712_345_690,
          }),
        },
      },
      {
        type: 'TaskRefunded',
        data: {
          taskId: 's1',
          platform: 'suno',
          upstreamTaskId: 'suno-1',
          userId: 7,
          tokenId: 3,
          channelId: 2,
          model: 'suno_music',
          quota: 50_000,
          refundedTime: AT,
        },
      },
    ]);
    expect(await suno('s1')).toEqual({
      _id: 's1',
      task_key: 's1',
      source_position: expect.any(Number),
      id: Number(first.position.commit),
      created_at: AT,
      updated_at: AT,
      task_id: 'suno-1',
      platform: 'suno',
      user_id: 7,
      channel_id: 2,
      quota: 50_000,
      refund_quota: 50_000,
      action: 'MUSIC',
      status: 'FAILURE',
      fail_reason: 'content policy',
      submit_time: 1_712_345_678,
      start_time: 1_712_345_680,
      finish_time: 1_712_345_690,
      progress: '100%',
      data: clips,
    });
    expect(await mj('s1')).toBeNull();
  });

  it('applying the same events again changes nothing (a store without transactions replays)', async () => {
    await append('t3', [submitted('t3')]);
    await append('t3', [{ type: 'TaskProgressed', data: { ...ref('t3'), snapshot: snapshot() } }]);
    await append('t3', [
      {
        type: 'TaskFailed',
        data: {
          ...ref('t3'),
          reason: 'timeout',
          cause: 'timeout',
          snapshot: snapshot({ status: 'FAILURE', progress: '100%', failReason: 'timeout' }),
        },
      },
    ]);
    const once = await mj('t3');
    const replay = await events.readStream(taskStreamId('t3'));
    for (const atomicTransactions of [true, false])
      await read.transaction((session) =>
        applyEvents(taskLogProjection, replay, session, { atomicTransactions }),
      );
    // An older event delivered again does not undo the failure.
    await read.transaction((session) =>
      applyEvents(taskLogProjection, [replay[1]!], session, { atomicTransactions: false }),
    );
    expect(await mj('t3')).toEqual(once);
    expect(once).toMatchObject({ status: 'FAILURE', fail_reason: 'timeout' });
  });
});

describe("the task log's realtime pushes", () => {
  it('tell admins and the owner named by every task event, never everyone; never data', () => {
    const task = submitted('push-1', { userId: 42 });
    const ref = { taskId: 'push-1', userId: 42, platform: 'midjourney' } as const;
    const pushes = pushesFor('task-log', [
      recordedEvent('TaskSubmitted', task.data),
      recordedEvent('TaskProgressed', { ...ref, snapshot: snapshot() }),
    ]);
    expect(pushes).toEqual([
      { to: 'admins', event: { topic: 'tasks' } },
      { to: 'user:42', event: { topic: 'tasks' } },
    ]);
    // A later batch (or one after a restart) names the owner from the event itself.
    for (const type of ['TaskProgressed', 'TaskSucceeded'] as const)
      expect(
        pushesFor('task-log', [recordedEvent(type, { ...ref, snapshot: snapshot() })]),
      ).toEqual([
        { to: 'admins', event: { topic: 'tasks' } },
        { to: 'user:42', event: { topic: 'tasks' } },
      ]);
    expect(
      pushesFor('task-log', [
        recordedEvent('TaskFailed', {
          ...ref,
          userId: 9,
          reason: 'x',
          cause: 'upstream',
          snapshot: snapshot(),
        }),
      ]),
    ).toEqual([
      { to: 'admins', event: { topic: 'tasks' } },
      { to: 'user:9', event: { topic: 'tasks' } },
    ]);
    expect(JSON.stringify(pushes)).not.toContain('a cat');
    expect(JSON.stringify(pushes)).not.toContain('everyone');
  });
});
