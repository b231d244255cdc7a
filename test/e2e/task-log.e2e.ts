import type { MidjourneyRow, TaskRow } from '@tollgate/contracts';
import { SYSTEM_ACTOR, taskStreamId, type TaskEvent, type TaskSubmitted } from '@tollgate/domain';
import type { EventStore } from '@tollgate/event-store';
import { appendEvents } from '@tollgate/testing/append-events';
import { EVENT_STORE } from '../../apps/gateway/src/infrastructure/injection-tokens';
import { TaskLogReader } from '../../apps/gateway/src/tasks/read/task-log.reader';
import { expectFailure, waitUntil } from '../support/e2e-helpers';
import {
  ConsoleClient,
  createAdmin,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(60_000);

/** 2024-04-05T19:34:38.901Z: the Midjourney tasks are submitted one second apart from here. */
const BASE_MS = 1_712_345_678_901;

let seq = 0;
function submitted(
  platform: 'midjourney' | 'suno',
  userId: number,
  over: Partial<TaskSubmitted['data']> = {},
): TaskSubmitted {
  seq += 1;
  const taskId = `e2e-task-${seq}`;
  return {
    type: 'TaskSubmitted',
    data: {
      taskId,
      platform,
      upstreamTaskId: `${platform === 'suno' ? 'suno' : 'mj'}-${seq}`,
      userId,
      tokenId: 0,
      channelId: 1,
      action: platform === 'suno' ? 'MUSIC' : 'IMAGINE',
      model: platform === 'suno' ? 'suno_music' : 'mj_imagine',
      code: platform === 'suno' ? 0 : 1,
      prompt: `prompt ${seq}`,
      description: '提交成功',
      submitTime: BASE_MS + seq * 1000,
      status: 'SUBMITTED',
      progress: '0%',
      failReason: '',
      quota: 1000,
      originTaskId: '',
      imageUrl: '',
      ...over,
    },
  };
}

describe('the drawing and task logs (GET /api/mj, /api/task)', () => {
  let t: TestApp;
  let store: EventStore;
  let root: ConsoleClient;
  let admin: ConsoleClient;
  let user: ConsoleClient;
  let other: ConsoleClient;
  const anonymous = () => new ConsoleClient(t.url);

  async function append(taskId: string, events: TaskEvent[]): Promise<void> {
    await appendEvents(store, taskStreamId(taskId), events, {
      schemaVersion: 1,
      actor: SYSTEM_ACTOR,
      occurredAt: new Date().toISOString(),
    });
  }
  async function rows<T>(client: ConsoleClient, path: string): Promise<T[]> {
    const res = await client.get(path);
    expect({ status: res.status, success: res.body.success, message: res.body.message }).toEqual({
      status: 200,
      success: true,
      message: '',
    });
    return res.body.data as T[];
  }
  const mj = (client: ConsoleClient, path: string) => rows<MidjourneyRow>(client, path);
  const tasks = (client: ConsoleClient, path: string) => rows<TaskRow>(client, path);

  /** Task ids (stream keys) by upstream id, for the later events. */
  const keyOf = new Map<string, string>();
  let userMj: TaskSubmitted[] = [];
  let userSuno: TaskSubmitted[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    store = t.app.get<EventStore>(EVENT_STORE);
    root = await loginRoot(t.url);
    admin = await createAdmin(t.url, root, 'taskadmin');
    user = await registerAndLogin(t.url, 'taskuser');
    other = await registerAndLogin(t.url, 'taskother');

    // 12 drawings of the user (channel 1, the last two on channel 5), 1 of the other user;
    // 3 Suno tasks of the user, 1 of the other.
    userMj = Array.from({ length: 12 }, (_, i) =>
      submitted('midjourney', user.userId, i >= 10 ? { channelId: 5 } : {}),
    );
    const otherMj = submitted('midjourney', other.userId, { channelId: 9 });
    userSuno = [
      submitted('suno', user.userId),
      submitted('suno', user.userId, { action: 'LYRICS', model: 'suno_lyrics' }),
      submitted('suno', user.userId, { channelId: 5 }),
    ];
    const otherSuno = submitted('suno', other.userId, { channelId: 9 });
    for (const event of [...userMj, otherMj, ...userSuno, otherSuno]) {
      keyOf.set(event.data.upstreamTaskId, event.data.taskId);
      await append(event.data.taskId, [event]);
    }
    await waitUntil(
      async () =>
        (await mj(root, '/api/mj/?p=1')).length === 3 &&
        (await tasks(root, '/api/task/')).length === 4,
      'the task rows',
    );
  });
  afterAll(() => t.close());

  it('admins page the drawing log 10 rows at a time, newest first; p is 0-based, negative = first', async () => {
    const first = await mj(admin, '/api/mj/');
    expect(first).toHaveLength(10);
    expect(first[0]).toMatchObject({ user_id: other.userId, channel_id: 9, mj_id: 'mj-13' });
    const ids = first.map((r) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(await mj(admin, '/api/mj/?p=0')).toEqual(first);
    expect(await mj(admin, '/api/mj/?p=-3')).toEqual(first);
    const second = await mj(root, '/api/mj/?p=1');
    expect(second.map((r) => r.mj_id)).toEqual(['mj-3', 'mj-2', 'mj-1']);
    expect(await mj(root, '/api/mj/?p=2')).toEqual([]);
    expect(second[2]).toEqual({
      id: expect.any(Number),
      code: 1,
      user_id: user.userId,
      action: 'IMAGINE',
      mj_id: 'mj-1',
      prompt: 'prompt 1',
      prompt_en: '',
      description: '提交成功',
      state: '',
      submit_time: BASE_MS + 1000,
      start_time: 0,
      finish_time: 0,
      image_url: '',
      status: 'SUBMITTED',
      progress: '0%',
      fail_reason: '',
      channel_id: 1,
      quota: 1000,
      refund_quota: 0,
      buttons: '',
      properties: '',
    });
  });

  it('filters the drawing log by channel, mj_id and submit time in milliseconds', async () => {
    expect((await mj(admin, '/api/mj/?channel_id=5')).map((r) => r.mj_id)).toEqual([
      'mj-12',
      'mj-11',
    ]);
    expect((await mj(admin, '/api/mj/?mj_id=mj-4')).map((r) => r.mj_id)).toEqual(['mj-4']);
    const from = BASE_MS + 3000;
    const to = BASE_MS + 5000;
    expect(
      (await mj(admin, `/api/mj/?start_timestamp=${from}&end_timestamp=${to}`)).map((r) => r.mj_id),
    ).toEqual(['mj-5', 'mj-4', 'mj-3']);
    // Seconds are not milliseconds: everything was submitted after second BASE_MS/1000.
    expect(await mj(admin, `/api/mj/?end_timestamp=${Math.floor(to / 1000)}`)).toEqual([]);
  });

  it('a user sees only their own drawings, without channel_id; channel_id is not a filter for them', async () => {
    const own = [...(await mj(user, '/api/mj/self')), ...(await mj(user, '/api/mj/self?p=1'))];
    expect(own.map((r) => r.mj_id)).toEqual(userMj.map((e) => e.data.upstreamTaskId).reverse());
    for (const row of own) {
      expect(row.user_id).toBe(user.userId);
      expect(row).not.toHaveProperty('channel_id');
    }
    expect((await mj(user, '/api/mj/self?channel_id=5')).length).toBe(10);
    expect(await mj(user, '/api/mj/self?mj_id=mj-13')).toEqual([]);
    const theirs = await mj(other, '/api/mj/self');
    expect(theirs.map((r) => r.mj_id)).toEqual(['mj-13']);
  });

  it('follows the task: progress, success with image and buttons, forwarded image address', async () => {
    const key = keyOf.get('mj-1')!;
    const buttons = [{ customId: 'MJ::JOB::upsample::1::x', emoji: '', label: 'U1', type: 2 }];
    await append(key, [
      {
        type: 'TaskSucceeded',
        data: {
          taskId: key,
          userId: user.userId,
          platform: 'midjourney',
          snapshot: {
            status: 'SUCCESS',
            progress: '100%',
            failReason: '',
            startTime: BASE_MS + 2000,
            finishTime: BASE_MS + 9000,
            imageUrl: 'http://127.0.0.1:9/img/1.png',
            promptEn: 'prompt one',
            buttons,
            properties: { finalPrompt: 'prompt one' },
          },
        },
      },
    ]);
    const row = async (client: ConsoleClient, path: string) => (await mj(client, path))[0]!;
    await waitUntil(
      async () => (await row(admin, '/api/mj/?mj_id=mj-1')).status === 'SUCCESS',
      'the success',
    );
    // MjForwardUrlEnabled is on by default; ServerAddress is empty: a relative address.
    expect(await row(admin, '/api/mj/?mj_id=mj-1')).toMatchObject({
      progress: '100%',
      finish_time: BASE_MS + 9000,
      prompt_en: 'prompt one',
      image_url: '/mj/image/mj-1',
      buttons: JSON.stringify(buttons),
      properties: '{"finalPrompt":"prompt one"}',
    });
    // The relay's reader has the upstream's own address.
    expect(await t.app.get(TaskLogReader).midjourneyImage('mj-1')).toEqual({
      imageUrl: 'http://127.0.0.1:9/img/1.png',
      channelId: 1,
    });

    expect(
      (await root.put('/api/option/', { key: 'ServerAddress', value: 'https://gw.example.com' }))
        .body.success,
    ).toBe(true);
    expect((await row(user, '/api/mj/self?mj_id=mj-1')).image_url).toBe(
      'https://gw.example.com/mj/image/mj-1',
    );
    const off = await root.put('/api/option/', { key: 'MjForwardUrlEnabled', value: 'false' });
    expect(off.body.success).toBe(true);
    expect((await row(user, '/api/mj/self?mj_id=mj-1')).image_url).toBe(
      'http://127.0.0.1:9/img/1.png',
    );
    await root.put('/api/option/', { key: 'MjForwardUrlEnabled', value: 'true' });
    expect((await row(admin, '/api/mj/?mj_id=mj-1')).image_url).toBe(
      'https://gw.example.com/mj/image/mj-1',
    );
  });

  it('a failed and refunded task shows its reason and refund_quota', async () => {
    const key = keyOf.get('mj-2')!;
    await append(key, [
      {
        type: 'TaskFailed',
        data: {
          taskId: key,
          userId: user.userId,
          platform: 'midjourney',
          reason: 'banned',
          cause: 'upstream',
          snapshot: {
            status: 'FAILURE',
            progress: '100%',
            failReason: 'banned',
            startTime: 0,
            finishTime: 0,
          },
        },
      },
      {
        type: 'TaskRefunded',
        data: {
          taskId: key,
          platform: 'midjourney',
          upstreamTaskId: 'mj-2',
          userId: user.userId,
          tokenId: 0,
          channelId: 1,
          model: 'mj_imagine',
          quota: 1000,
          refundedTime: Math.floor(Date.now() / 1000),
        },
      },
    ]);
    await waitUntil(
      async () => (await mj(user, '/api/mj/self?mj_id=mj-2'))[0]?.refund_quota === 1000,
      'the refund',
    );
    expect((await mj(user, '/api/mj/self?mj_id=mj-2'))[0]).toMatchObject({
      status: 'FAILURE',
      fail_reason: 'banned',
      refund_quota: 1000,
    });
  });

  it('the task log: filters, seconds, own rows only, the relay reader', async () => {
    const all = await tasks(admin, '/api/task/');
    expect(all.map((r) => r.task_id)).toEqual(['suno-17', 'suno-16', 'suno-15', 'suno-14']);
    expect(all[0]).toMatchObject({ platform: 'suno', channel_id: 9, user_id: other.userId });
    expect((await tasks(admin, '/api/task/?channel_id=5')).map((r) => r.task_id)).toEqual([
      'suno-16',
    ]);
    expect((await tasks(admin, '/api/task/?action=LYRICS')).map((r) => r.task_id)).toEqual([
      'suno-15',
    ]);
    expect(await tasks(admin, '/api/task/?platform=midjourney')).toEqual([]);
    expect(await tasks(admin, '/api/task/?platform=suno&status=SUBMITTED')).toHaveLength(4);
    expect((await tasks(admin, '/api/task/?task_id=suno-14')).map((r) => r.task_id)).toEqual([
      'suno-14',
    ]);
    // submit_time in seconds: task 15 was submitted at BASE_MS + 15 s.
    const s15 = Math.floor((BASE_MS + 15_000) / 1000);
    expect(all.find((r) => r.task_id === 'suno-15')?.submit_time).toBe(s15);
    expect(
      (await tasks(admin, `/api/task/?start_timestamp=${s15}&end_timestamp=${s15 + 1}`)).map(
        (r) => r.task_id,
      ),
    ).toEqual(['suno-16', 'suno-15']);
    expect(await tasks(admin, `/api/task/?start_timestamp=${(s15 + 10) * 1000}`)).toEqual([]);

    const own = await tasks(user, '/api/task/self');
    expect(own.map((r) => r.task_id)).toEqual(['suno-16', 'suno-15', 'suno-14']);
    for (const row of own) expect(row).not.toHaveProperty('channel_id');
    expect(await tasks(other, '/api/task/self?task_id=suno-14')).toEqual([]);

    const reader = t.app.get(TaskLogReader);
    expect(
      (await reader.sunoByUpstreamIds(user.userId, ['suno-14', 'suno-17'])).map((r) => r.task_id),
    ).toEqual(['suno-14']);
    expect(
      (await reader.midjourneyByUpstreamIds(user.userId, ['mj-3', 'mj-1', 'mj-13'])).map(
        (r) => r.mj_id,
      ),
    ).toEqual(['mj-3', 'mj-1']);
    expect(await reader.midjourneyImage('no-such')).toBeUndefined();
  });

  it('admin routes refuse users (权限不足) and everyone without a session (401)', async () => {
    for (const path of ['/api/mj/', '/api/task/']) {
      expectFailure(await user.get(path), '无权进行此操作，权限不足');
      const res = await anonymous().get(path);
      expect(res.status).toBe(401);
    }
    for (const path of ['/api/mj/self', '/api/task/self'])
      expect((await anonymous().get(path)).status).toBe(401);
  });

  it('refuses bad input with the envelope and zh-CN messages', async () => {
    // (Text that is no number at all, `p=abc`, is the parameter left out, as new-api reads it.)
    expectFailure(await admin.get('/api/mj/?p=1&p=2'), '输入不合法：字段 p 必须是整数');
    expectFailure(
      await user.get('/api/mj/self?start_timestamp=-1'),
      '输入不合法：字段 start_timestamp 不能小于 0',
    );
    expectFailure(
      await admin.get('/api/task/?channel_id=-1'),
      '输入不合法：字段 channel_id 不能小于 0',
    );
    expectFailure(
      await admin.get('/api/task/?end_timestamp=-2'),
      '输入不合法：字段 end_timestamp 不能小于 0',
    );
    expectFailure(
      await user.get(`/api/task/self?task_id=${'x'.repeat(101)}`),
      '输入不合法：字段 task_id 长度不能超过 100',
    );
    expectFailure(
      await user.get(`/api/mj/self?mj_id=${'x'.repeat(101)}`),
      '输入不合法：字段 mj_id 长度不能超过 100',
    );
  });
});
