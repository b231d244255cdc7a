import { isSkipped } from './import-mapping';
import { mapMidjourneyRow, mapSunoTaskRow } from './task-mapping';

const AT = '2026-01-15T08:00:00.000Z';
const mjRow = (over: Record<string, unknown> = {}) => ({
  id: 3,
  code: 1,
  user_id: 2,
  action: 'IMAGINE',
  mj_id: '1712345678901234',
  prompt: 'a cat',
  prompt_en: 'a cat',
  description: '提交成功',
  state: '',
  submit_time: 1_712_345_678_901,
  start_time: 1_712_345_679_000,
  finish_time: 1_712_345_700_000,
  image_url: 'https://cdn.example/x.png',
  status: 'SUCCESS',
  progress: '100%',
  fail_reason: '',
  channel_id: 4,
  quota: 50_000,
  buttons: '[{"customId":"MJ::JOB::upsample::1::x","label":"U1"}]',
  properties: '{"finalPrompt":"a cat"}',
  ...over,
});
const sunoRow = (over: Record<string, unknown> = {}) => ({
  id: 9,
  created_at: 1_712_345_000,
  updated_at: 1_712_345_100,
  task_id: 'b3a1-uuid',
  platform: 'suno',
  user_id: 2,
  channel_id: 5,
  quota: 40_000,
  action: 'MUSIC',
  status: 'SUCCESS',
  fail_reason: '',
  submit_time: 1_712_345_000,
  start_time: 1_712_345_010,
  finish_time: 1_712_345_090,
  progress: '100%',
  properties: '{"input":"a song"}',
  data: '[{"id":"clip-1","audio_url":"https://cdn.example/1.mp3"}]',
  ...over,
});
const mapMj = (over: Record<string, unknown> = {}) => {
  const mapped = mapMidjourneyRow(mjRow(over), AT);
  if (isSkipped(mapped)) throw new Error(mapped.skipped.reason);
  return mapped;
};
const mapSuno = (over: Record<string, unknown> = {}) => {
  const mapped = mapSunoTaskRow(sunoRow(over), AT);
  if (isSkipped(mapped)) throw new Error(mapped.skipped.reason);
  return mapped;
};

describe('mapMidjourneyRow', () => {
  it('maps a finished drawing whole, times kept in milliseconds, JSON parsed', () => {
    const { task, items } = mapMj();
    expect(task).toEqual({
      taskId: 'newapi-mj-3',
      platform: 'midjourney',
      upstreamTaskId: '1712345678901234',
      userId: 2,
      tokenId: 0,
      channelId: 4,
      action: 'IMAGINE',
      model: 'mj_imagine',
      code: 1,
      quota: 50_000,
      status: 'SUCCESS',
      progress: '100%',
      failReason: '',
      submitTime: 1_712_345_678_901,
      startTime: 1_712_345_679_000,
      finishTime: 1_712_345_700_000,
      prompt: 'a cat',
      promptEn: 'a cat',
      description: '提交成功',
      state: '',
      imageUrl: 'https://cdn.example/x.png',
      buttons: [{ customId: 'MJ::JOB::upsample::1::x', label: 'U1' }],
      properties: { finalPrompt: 'a cat' },
      source: { project: 'new-api', table: 'midjourneys', rowId: 3, importedAt: AT },
    });
    expect(items).toEqual([]);
  });

  it('keeps an open task open with its progress and status as stored', () => {
    const { task } = mapMj({ status: 'IN_PROGRESS', progress: '45%', finish_time: 0 });
    expect(task).toMatchObject({ status: 'IN_PROGRESS', progress: '45%', finishTime: 0 });
    expect(mapMj({ status: 'NOT_START', progress: '0%' }).task.status).toBe('NOT_START');
  });

  it('skips an empty mj_id and a bad id, with reasons', () => {
    const empty = mapMidjourneyRow(mjRow({ mj_id: '' }), AT);
    expect(isSkipped(empty) && empty.skipped).toMatchObject({
      table: 'midjourneys',
      rowId: 3,
      action: 'skipped',
      reason: expect.stringMatching(/empty mj_id/),
    });
    expect(isSkipped(mapMidjourneyRow(mjRow({ id: 0 }), AT))).toBe(true);
  });

  it('drops JSON columns that do not parse, reported; empty ones are simply absent', () => {
    const { task, items } = mapMj({ buttons: '[{"x":', properties: '' });
    expect(task).not.toHaveProperty('buttons');
    expect(task).not.toHaveProperty('properties');
    expect(items).toEqual([
      {
        table: 'midjourneys',
        rowId: 3,
        action: 'dropped',
        field: 'buttons',
        reason: 'not valid JSON',
      },
    ]);
  });

  it('names the billed model after the action; an empty action is IMAGINE, reported', () => {
    expect(mapMj({ action: 'UPSCALE' }).task.model).toBe('mj_upscale');
    expect(mapMj({ action: 'SWAP_FACE' }).task.model).toBe('swap_face');
    const { task, items } = mapMj({ action: '' });
    expect(task).toMatchObject({ action: 'IMAGINE', model: 'mj_imagine' });
    expect(items[0]).toMatchObject({ field: 'action', action: 'changed' });
  });

  it('a negative quota comes in as 0, reported', () => {
    const { task, items } = mapMj({ quota: -5 });
    expect(task.quota).toBe(0);
    expect(items[0]).toMatchObject({ field: 'quota', reason: '-5 is negative: imported as 0' });
  });
});

describe('mapSunoTaskRow', () => {
  it('maps a Suno task, times in seconds turned into milliseconds, clips parsed', () => {
    const { task, items } = mapSuno();
    expect(task).toMatchObject({
      taskId: 'newapi-task-9',
      platform: 'suno',
      upstreamTaskId: 'b3a1-uuid',
      userId: 2,
      channelId: 5,
      action: 'MUSIC',
      model: 'suno_music',
      quota: 40_000,
      submitTime: 1_712_345_000_000,
      startTime: 1_712_345_010_000,
      finishTime: 1_712_345_090_000,
      data: [{ id: 'clip-1', audio_url: 'https://cdn.example/1.mp3' }],
      properties: { input: 'a song' },
      createdAt: 1_712_345_000,
      updatedAt: 1_712_345_100,
      source: { project: 'new-api', table: 'tasks', rowId: 9, importedAt: AT },
    });
    expect(items).toEqual([]);
  });

  it('takes JSON a driver parsed already (MySQL / PostgreSQL json columns)', () => {
    const { task } = mapSuno({ data: [{ id: 'c' }], properties: { input: '' } });
    expect(task).toMatchObject({ data: [{ id: 'c' }], properties: { input: '' } });
  });

  it('an empty action is kept, billed as suno_music, reported', () => {
    const { task, items } = mapSuno({ action: '' });
    expect(task).toMatchObject({ action: '', model: 'suno_music' });
    expect(items).toEqual([
      expect.objectContaining({ table: 'tasks', rowId: 9, field: 'action', action: 'changed' }),
    ]);
  });

  it('drops a data column that does not parse, reported', () => {
    const { task, items } = mapSuno({ data: 'not json' });
    expect(task).not.toHaveProperty('data');
    expect(items[0]).toMatchObject({ field: 'data', action: 'dropped' });
  });

  it('skips an empty task_id and a platform Tollgate does not relay', () => {
    const empty = mapSunoTaskRow(sunoRow({ task_id: '' }), AT);
    expect(isSkipped(empty) && empty.skipped.reason).toMatch(/empty task_id/);
    const kling = mapSunoTaskRow(sunoRow({ platform: 'kling' }), AT);
    expect(isSkipped(kling) && kling.skipped.reason).toMatch(/platform 'kling'/);
  });
});
