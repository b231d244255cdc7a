import { isSkipped } from './import-mapping';
import { mapChannelRow, type MappedChannel } from './channel-mapping';
import { ONE_API_TYPES } from './channel-type-routing';
import { importExtraChannels } from './import-catalogue';
import { newReport } from './import-report';

const AT = '2026-01-15T08:00:00.000Z';
const oneApiRow = (over: Record<string, unknown> = {}) => ({
  id: 3,
  type: 1,
  key: 'sk-abc',
  status: 1,
  name: 'main',
  weight: 5,
  created_time: 1_700_000_000,
  test_time: 0,
  response_time: 0,
  base_url: '',
  other: '',
  balance: 0,
  balance_updated_time: 0,
  models: 'gpt-4o,gpt-4o-mini',
  group: 'default,vip',
  used_quota: 1000,
  model_mapping: '',
  priority: 10,
  config: '',
  system_prompt: null,
  ...over,
});
const map = (over: Record<string, unknown> = {}, project: 'one-api' | 'new-api' = 'one-api') => {
  const mapped = mapChannelRow(project, oneApiRow(over), AT);
  if (isSkipped(mapped)) throw new Error(mapped.skipped.reason);
  return mapped;
};
const item = (m: MappedChannel, field: string) => m.items.find((i) => i.field === field);

describe('mapChannelRow', () => {
  it('maps a plain OpenAI channel whole, keeping its default base URL empty', () => {
    const m = map();
    expect(m.channel).toMatchObject({
      channelId: 3,
      key: 'sk-abc',
      status: 1,
      usedQuota: 1000,
      sourceType: 1,
      source: { project: 'one-api', table: 'channels', rowId: 3, importedAt: AT },
    });
    expect(m.channel.config).toMatchObject({
      type: 1,
      name: 'main',
      baseUrl: '',
      models: ['gpt-4o', 'gpt-4o-mini'],
      groups: ['default', 'vip'],
      priority: 10,
      weight: 5,
      autoBan: true,
    });
    expect(m.items).toEqual([]);
  });

  it.each<[number, number, string]>([
    [2, 1, 'https://oa.api2d.net'],
    [4, 1, 'https://api.closeai-proxy.xyz'],
    [5, 1, 'https://api.openai-sb.com'],
    [26, 1, 'https://api.baichuan-ai.com'],
    [29, 1, 'https://api.groq.com/openai'],
    [32, 1, 'https://api.stepfun.com'],
    [39, 1, 'https://api.together.xyz'],
    [48, 1, 'https://spark-api-open.xf-yun.com'],
    [49, 1, 'https://dashscope.aliyuncs.com/compatible-mode'],
    [19, 19, 'https://ai.360.cn'],
  ])('one-api type %i becomes %i with its base URL written in', (from, to, base) => {
    const m = map({ type: from });
    expect(m.channel.config.type).toBe(to);
    expect(m.channel.config.baseUrl).toBe(base);
    expect(m.channel.sourceType).toBe(from);
    expect(item(m, 'base_url')?.reason).toContain(base);
    expect(m.channel.status).toBe(1);
  });

  it.each<[number, number]>([
    [27, 35],
    [30, 4],
    [35, 34],
    [36, 43],
    [40, 45],
    [44, 40],
    [47, 46],
    [51, 24],
  ])('one-api type %i is renumbered %i, the type default base applying', (from, to) => {
    const m = map({ type: from, key: 'k' });
    expect(m.channel.config.type).toBe(to);
    expect(m.channel.config.baseUrl).toBe('');
    expect(item(m, 'type')?.reason).toContain(`new-api type ${to}`);
  });

  it('keeps the numbers both projects share', () => {
    for (const type of [1, 3, 8, 14, 16, 17, 20, 23, 24, 25, 31, 33])
      expect(ONE_API_TYPES[type]?.to).toBe(type);
  });

  it('Novita (one-api 41) becomes Custom (8) at the URL one-api called for chat', () => {
    const fallback = map({ type: 41 });
    expect(fallback.channel.config).toMatchObject({
      type: 8,
      baseUrl: 'https://api.novita.ai/v3/openai/chat/completions',
    });
    expect(fallback.channel.status).toBe(1);
    expect(item(fallback, 'type')?.reason).toContain('new-api type 8 (Custom');
    expect(item(fallback, 'base_url')?.reason).toContain(
      'calls https://api.novita.ai/v3/openai/chat/completions',
    );
    const own = map({ type: 41, base_url: 'https://proxy.example.com/novita/' });
    expect(own.channel.config.baseUrl).toBe('https://proxy.example.com/novita/chat/completions');
  });

  it('new-api 45 VolcEngine and 46 BaiduV2 keep their number and the type default base', () => {
    for (const type of [45, 46]) {
      const m = map({ type, key: 'ark-key' }, 'new-api');
      expect(m.channel.config).toMatchObject({ type, baseUrl: '' });
      expect(m.channel.status).toBe(1);
      expect(m.items).toEqual([]);
    }
  });

  it('keeps a base URL the row has', () => {
    const m = map({ type: 36, base_url: 'https://proxy.example.com/' });
    expect(m.channel.config.baseUrl).toBe('https://proxy.example.com');
  });

  it.each([34, 38, 43, 46, 99])('one-api type %i has no counterpart: imported disabled', (type) => {
    const m = map({ type });
    expect(m.channel.config.type).toBe(0);
    expect(m.channel.status).toBe(2);
    expect(item(m, 'status')?.reason).toMatch(/imported disabled/);
  });

  it('a new-api channel keeps its type, the OpenAI-compatible resellers and Mistral and xAI too', () => {
    const suno = map({ type: 36, models: 'suno_music' }, 'new-api');
    expect(suno.channel.config.type).toBe(36);
    expect(suno.channel.status).toBe(1);
    for (const type of [6, 7, 9, 42, 48]) {
      const m = map({ type }, 'new-api');
      expect([type, m.channel.config.type, m.channel.status]).toEqual([type, type, 1]);
      expect(item(m, 'type')).toBeUndefined();
    }
  });

  it("one-api's Mistral, xAI and resellers become new-api's own types (their default address)", () => {
    expect(map({ type: 28 }).channel.config).toMatchObject({ type: 42, baseUrl: '' });
    expect(map({ type: 45 }).channel.config).toMatchObject({ type: 48, baseUrl: '' });
    expect(map({ type: 7 }).channel.config.type).toBe(7);
  });

  it('config moves: Azure api_version, Cloudflare account, Ali plugin, AWS keys, Vertex', () => {
    expect(map({ type: 3, config: '{"api_version":"2024-02-01"}' }).channel.config.other).toBe(
      '2024-02-01',
    );
    expect(map({ type: 3, other: '2024-03-01', config: '{}' }).channel.config.other).toBe(
      '2024-03-01',
    );
    expect(map({ type: 37, config: '{"user_id":"acc123"}' }).channel.config).toMatchObject({
      type: 39,
      other: 'acc123',
    });
    expect(map({ type: 17, config: '{"plugin":"web_search"}' }).channel.config.other).toBe(
      'web_search',
    );
    const aws = map({ type: 33, key: 'x', config: '{"region":"us-east-1","ak":"AK","sk":"SK"}' });
    expect(aws.channel.key).toBe('AK|SK|us-east-1');
    expect(aws.channel.status).toBe(1);
    const adc = JSON.stringify({ type: 'service_account', project_id: 'p1' });
    const vertex = map({
      type: 42,
      key: '',
      config: JSON.stringify({
        region: 'us-central1',
        vertex_ai_adc: adc,
        vertex_ai_project_id: 'p1',
      }),
    });
    expect(vertex.channel.config).toMatchObject({ type: 41, other: '{"default":"us-central1"}' });
    expect(vertex.channel.key).toBe(adc);
    expect(vertex.channel.status).toBe(1);
  });

  it('drops an invalid config, model mapping, status code mapping and setting, reported', () => {
    const m = map(
      {
        config: '{bad',
        model_mapping: '{"gpt-4": 4',
        status_code_mapping: '[1]',
        setting: 'x',
      },
      'one-api',
    );
    expect(m.channel.config.modelMapping).toBe('');
    expect(m.channel.config.statusCodeMapping).toBe('');
    expect(m.channel.config.setting).toBe('');
    for (const field of ['config', 'model_mapping', 'status_code_mapping', 'setting'])
      expect(item(m, field)?.action).toBe('dropped');
    expect(m.channel.status).toBe(1);
  });

  it('keeps manual and automatic disables apart, with new-api reasons', () => {
    expect(map({ status: 2 }).channel.status).toBe(2);
    const auto = map(
      { status: 3, other_info: '{"status_reason":"insufficient quota","status_time":1700000500}' },
      'new-api',
    );
    expect(auto.channel).toMatchObject({
      status: 3,
      statusReason: 'insufficient quota',
      statusTime: 1_700_000_500,
    });
    expect(map({ status: 3 }).channel.statusReason).toBe('disabled automatically in one-api');
  });

  it("masks the row's keys where the source's status reason quotes one", () => {
    const reason = 'Incorrect API key provided: Bearer sk-second-0123456789 (sk-first-0123456789)';
    const auto = map(
      {
        key: 'sk-first-0123456789\nsk-second-0123456789',
        status: 3,
        other_info: JSON.stringify({ status_reason: reason, status_time: 1 }),
      },
      'new-api',
    );
    expect(auto.channel.statusReason).toBe('Incorrect API key provided: Bearer *** (***)');
    expect(auto.extraChannels[0]?.statusReason).toBe(auto.channel.statusReason);
  });

  it('new-api fields: tag, auto_ban, test model, organization, param_override', () => {
    const m = map(
      {
        type: 1,
        tag: 'team-a',
        auto_ban: 0,
        test_model: 'gpt-4o-mini',
        open_ai_organization: 'org-1',
        status_code_mapping: '{"429":"500"}',
        param_override: '{"temperature":0}',
      },
      'new-api',
    );
    expect(m.channel.config).toMatchObject({
      tag: 'team-a',
      autoBan: false,
      testModel: 'gpt-4o-mini',
      openaiOrganization: 'org-1',
      statusCodeMapping: '{"429":"500"}',
      paramOverride: '{"temperature":0}',
    });
    expect(item(m, 'param_override')).toBeUndefined();
  });

  it('param_override: malformed dropped with a note; model and stream left out', () => {
    const bad = map({ type: 1, param_override: '[1,2]' }, 'new-api');
    expect(bad.channel.config.paramOverride).toBe('');
    expect(item(bad, 'param_override')?.action).toBe('dropped');
    const huge = map({ type: 1, param_override: `{"a":"${'x'.repeat(10_000)}"}` }, 'new-api');
    expect(huge.channel.config.paramOverride).toBe('');
    const guarded = map(
      { type: 1, param_override: '{"model":"other","stream":false,"top_p":0.5}' },
      'new-api',
    );
    expect(guarded.channel.config.paramOverride).toBe('{"top_p":0.5}');
    expect(item(guarded, 'param_override')?.action).toBe('changed');
    expect(map({ type: 1 }, 'one-api').channel.config.paramOverride).toBe('');
  });

  it('a multi-line key: the row takes the first, each other distinct line one more channel', () => {
    const multi = map({ key: 'sk-1\r\n sk-2 \n\nsk-1\nsk-3\nsk-2\n', status: 3 });
    expect(multi.channel).toMatchObject({ channelId: 3, key: 'sk-1', usedQuota: 1000 });
    expect(multi.channel.config.name).toBe('main');
    expect(multi.extraChannels.map((c) => [c.key, c.config.name])).toEqual([
      ['sk-2', 'main #2'],
      ['sk-3', 'main #3'],
    ]);
    for (const extra of multi.extraChannels) {
      // Every setting as the row's; the used quota stays with the row's own channel.
      expect({ ...extra.config, name: 'main' }).toEqual(multi.channel.config);
      expect(extra).toMatchObject({
        status: 3,
        statusReason: multi.channel.statusReason,
        sourceType: 1,
        usedQuota: 0,
        source: multi.channel.source,
      });
      expect(extra).not.toHaveProperty('channelId');
    }
    // Repeated lines are imported once, reported; no key in the report.
    expect(item(multi, 'key')).toMatchObject({ action: 'dropped' });
    expect(item(multi, 'key')?.reason).toMatch(/^2 repeated lines/);
    expect(JSON.stringify(multi.items)).not.toMatch(/sk-\d/);
    expect(map({ key: 'sk-1' }).extraChannels).toEqual([]);
    // A JSON key (Vertex) is one key, never split.
    const adc = JSON.stringify({ type: 'service_account', project_id: 'p1' }, null, 2);
    expect(map({ type: 41, key: adc, other: 'us-central1' }, 'new-api').extraChannels).toEqual([]);
  });

  it('each key of a multi-line key is checked on its own', () => {
    const m = map({ type: 15, key: 'api|secret\nno-pipe' });
    expect(m.channel.status).toBe(1);
    expect(m.extraChannels[0]?.status).toBe(2);
    expect(item(m, 'status')?.reason).toBe(
      'main #2: imported disabled: the key is not in the APIKey|SecretKey format',
    );
  });

  it('an empty key, no models or a key in the wrong format disable the channel', () => {
    expect(map({ key: '' }).channel.status).toBe(2);
    expect(map({ models: '' }).channel.status).toBe(2);
    expect(map({ type: 15, key: 'no-pipe' }).channel.status).toBe(2);
  });

  it('skips a row without a positive id', () => {
    expect(isSkipped(mapChannelRow('one-api', oneApiRow({ id: 0 }), AT))).toBe(true);
  });
});

describe('importExtraChannels (dry run: ids and report, nothing written)', () => {
  it('gives the further keys ids after the highest source id, in source order', async () => {
    const row = (id: number, key: string) => {
      const m = mapChannelRow('one-api', oneApiRow({ id, key }), AT);
      if (isSkipped(m)) throw new Error(m.skipped.reason);
      return { rowId: id, extra: m.extraChannels };
    };
    const report = newReport('src', 'one-api', true, ['channels']);
    const last = await importExtraChannels(
      [row(4, 'sk-a\nsk-b\nsk-c'), row(9, 'sk-d\nsk-e')],
      12,
      null,
      report,
    );
    expect(last).toBe(15);
    expect(report.items.map((i) => [i.rowId, i.field, i.reason])).toEqual([
      [4, 'key', '3 keys on separate lines: imported as channels 4, 13, 14'],
      [9, 'key', '2 keys on separate lines: imported as channels 9, 15'],
    ]);
    expect(report.tables['channels']).toMatchObject({ imported: 3, skipped: 0 });
    expect(await importExtraChannels([], 12, null, report)).toBe(12);
  });
});
