import {
  actionOfCustomId,
  clientMjAnswer,
  mjModelName,
  parseSimpleChange,
  readMjSubmission,
  upstreamMjBody,
  upstreamMjPath,
} from './mj-wire';

describe('Midjourney wire', () => {
  it('names the billed model of each action as new-api', () => {
    expect(mjModelName('IMAGINE')).toBe('mj_imagine');
    expect(mjModelName('HIGH_VARIATION')).toBe('mj_high_variation');
    expect(mjModelName('SWAP_FACE')).toBe('swap_face');
    expect(mjModelName('UPLOAD')).toBe('mj_upload');
  });

  it('reads the action of a button customId, the longer names first', () => {
    expect(actionOfCustomId('MJ::JOB::upsample::2::abc')).toBe('UPSCALE');
    expect(actionOfCustomId('MJ::JOB::low_variation::1::abc')).toBe('LOW_VARIATION');
    expect(actionOfCustomId('MJ::JOB::variation::3::abc')).toBe('VARIATION');
    expect(actionOfCustomId('MJ::JOB::pan_left::1::abc')).toBe('PAN');
    expect(actionOfCustomId('MJ::Outpaint::50::1::abc')).toBe('ZOOM');
    expect(actionOfCustomId('MJ::CustomZoom::abc')).toBe('CUSTOM_ZOOM');
    expect(actionOfCustomId('MJ::Inpaint::1::abc')).toBe('INPAINT');
    expect(actionOfCustomId('nonsense')).toBe('');
  });

  it('parses simple-change content', () => {
    expect(parseSimpleChange('1320098173412546 U2')).toEqual({
      taskId: '1320098173412546',
      action: 'UPSCALE',
      index: 2,
    });
    expect(parseSimpleChange('17 R')).toEqual({ taskId: '17', action: 'REROLL', index: 0 });
    expect(parseSimpleChange('17 U9')).toBeUndefined();
    expect(parseSimpleChange('17')).toBeUndefined();
  });

  it('reads submissions and refuses what new-api refuses', () => {
    expect(readMjSubmission('IMAGINE', { prompt: 'a cat' })).toEqual({
      action: 'IMAGINE',
      originTaskId: '',
      prompt: 'a cat',
    });
    expect(readMjSubmission('IMAGINE', {})).toEqual({ error: 'prompt_is_required' });
    expect(readMjSubmission('CHANGE', { taskId: '9', action: 'upscale', index: 1 })).toMatchObject({
      action: 'UPSCALE',
      originTaskId: '9',
    });
    expect(readMjSubmission('CHANGE', { content: '9 V1' })).toMatchObject({
      action: 'VARIATION',
      originTaskId: '9',
    });
    expect(readMjSubmission('CHANGE', { taskId: '9', action: 'DANCE' })).toEqual({
      error: 'action_is_invalid',
    });
    expect(readMjSubmission('ACTION', { taskId: '9', customId: 'MJ::Inpaint::1' })).toMatchObject({
      action: 'INPAINT',
    });
    expect(readMjSubmission('ACTION', { customId: 'MJ::Inpaint::1' })).toEqual({
      error: 'task_id_is_required',
    });
    expect(readMjSubmission('MODAL', { taskId: '9', prompt: 'p' })).toMatchObject({
      action: 'MODAL',
      originTaskId: '9',
    });
  });

  it('shows the upstream only what the options allow', () => {
    const body = {
      prompt: 'a cat --fast --relax',
      accountFilter: { x: 1 },
      notifyHook: 'http://h',
    };
    expect(upstreamMjBody(body, { accountFilter: false, notify: false, modeClear: true })).toEqual({
      prompt: 'a cat',
    });
    expect(upstreamMjBody(body, { accountFilter: true, notify: true, modeClear: false })).toEqual(
      body,
    );
  });

  it('cuts a mode prefix from the upstream path only', () => {
    expect(upstreamMjPath('/mj-fast/mj/submit/imagine')).toBe('/mj/submit/imagine');
    expect(upstreamMjPath('/mj/submit/imagine?x=1')).toBe('/mj/submit/imagine');
  });

  it('shows queued and existing codes as submitted, except 21 on free actions', () => {
    expect(clientMjAnswer('{"code":22,"result":"1"}', 'IMAGINE')).toBe('{"code":1,"result":"1"}');
    expect(clientMjAnswer('{"code": 21}', 'IMAGINE')).toBe('{"code":1}');
    expect(clientMjAnswer('{"code":21}', 'INPAINT')).toBe('{"code":21}');
    expect(clientMjAnswer('{"code":24}', 'IMAGINE')).toBe('{"code":24}');
  });
});
