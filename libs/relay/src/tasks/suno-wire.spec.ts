import { readSunoSubmission, sunoErrorBody, sunoModelName, sunoSubmittedId } from './suno-wire';
import { mjSnapshot, sunoSnapshot } from './task-snapshots';

describe('Suno wire', () => {
  it('reads music and lyrics submissions as new-api', () => {
    expect(readSunoSubmission('music', { prompt: 'x' })).toEqual({
      action: 'MUSIC',
      body: { prompt: 'x', mv: 'chirp-v3-0' },
      prompt: 'x',
      originTaskId: '',
    });
    expect(readSunoSubmission('lyrics', {})).toEqual({ error: 'prompt_is_required' });
    expect(readSunoSubmission('dance', {})).toEqual({ error: 'invalid_action' });
    expect(readSunoSubmission('music', { continue_clip_id: 'c' })).toEqual({
      error: 'task_id_is_required',
    });
    expect(
      readSunoSubmission('music', { continue_clip_id: 'c', task_id: 't', mv: 'chirp-v3-5' }),
    ).toMatchObject({ originTaskId: 't', body: { mv: 'chirp-v3-5' } });
    expect(sunoModelName('LYRICS')).toBe('suno_lyrics');
  });

  it('reads the submitted id and hides transport details in errors', () => {
    expect(sunoSubmittedId({ code: 'success', data: 'abc' })).toBe('abc');
    expect(sunoSubmittedId({ code: 'error', data: null })).toBeUndefined();
    expect(JSON.parse(sunoErrorBody('x', 'dial tcp 10.0.0.1: refused'))).toEqual({
      code: 'x',
      message: '请求上游地址失败',
      data: null,
    });
    const english = sunoErrorBody('x', 'Post "http://up": refused', 'Could not reach it');
    expect(JSON.parse(english)).toMatchObject({ message: 'Could not reach it' });
  });

  it('turns upstream task DTOs into snapshots, bounded', () => {
    expect(
      mjSnapshot({
        status: 'SUCCESS',
        progress: '100%',
        failReason: null,
        startTime: 5,
        finishTime: null,
        imageUrl: 'http://u/1.png',
        buttons: [{ label: 'U1' }],
      }),
    ).toMatchObject({
      status: 'SUCCESS',
      failReason: '',
      startTime: 5,
      finishTime: 0,
      imageUrl: 'http://u/1.png',
      buttons: [{ label: 'U1' }],
    });
    const huge = sunoSnapshot({ status: 'SUCCESS', data: ['x'.repeat(70 * 1024)] });
    expect(huge).toMatchObject({ status: 'SUCCESS', progress: '100%' });
    expect(huge.data).toBeUndefined();
  });
});
