import request from 'supertest';
import {
  modelPrices,
  QuotaType,
  type PricingResponse,
  type PricingRowDto,
} from '@tollgate/contracts';
import { SELF_USE_MODEL_RATIO } from '@tollgate/domain';
import { countStoredEvents, expectSuccess } from '../support/e2e-helpers';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(60_000);

/** GET /api/pricing: public, from the routing table and the options; never a channel detail. */
describe('GET /api/pricing', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let svipUser: ConsoleClient;
  const channelIds: Record<string, number> = {};

  const anonymous = async (): Promise<PricingResponse> => {
    const res = await request(t.url).get('/api/pricing');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    return res.body as PricingResponse;
  };
  const asUser = async (client: ConsoleClient): Promise<PricingResponse> => {
    const res = await client.get('/api/pricing');
    expect(res.body.success).toBe(true);
    return res.body as PricingResponse;
  };
  const row = (answer: PricingResponse, model: string): PricingRowDto | undefined =>
    answer.data.find((r) => r.model_name === model);
  const setOption = async (key: string, value: unknown) =>
    expectSuccess(
      await root.put('/api/option/', {
        key,
        value: typeof value === 'string' ? value : JSON.stringify(value),
      }),
    );
  const addChannel = async (name: string, models: string, group: string) => {
    const res = await root.post('/api/channel/', {
      type: 1,
      name,
      key: `sk-secret-${name}-0123456789`,
      base_url: `http://upstream-${name}.invalid/`,
      models,
      group,
    });
    expectSuccess(res);
    channelIds[name] = (res.body.data.ids as number[])[0]!;
  };

  beforeAll(async () => {
    t = await startTestApp();
    root = await loginRoot(t.url);
    svipUser = await registerAndLogin(t.url, 'pricing_svip');
    expectSuccess(await root.put('/api/user/', { id: svipUser.userId, group: 'svip' }));
  });
  afterAll(async () => {
    await t.close();
  });

  it('with no channel: no rows; the public groups and their ratios beside data', async () => {
    const answer = await anonymous();
    expect(answer).toEqual({
      success: true,
      message: '',
      data: [],
      group_ratio: { default: 1, vip: 1 },
      usable_group: { default: '默认分组', vip: 'vip分组' },
    });
  });

  it('rows follow a created channel; each caller sees only their usable groups', async () => {
    await addChannel('main', 'gpt-4o,gpt-4o-mini', 'default,vip');
    await addChannel('premium', 'svip-only-model,gpt-4o', 'svip');

    const anon = await anonymous();
    expect(anon.data.map((r) => [r.model_name, r.enable_groups])).toEqual([
      ['gpt-4o', ['default', 'vip']],
      ['gpt-4o-mini', ['default', 'vip']],
    ]);
    expect(row(anon, 'gpt-4o')).toMatchObject({ quota_type: QuotaType.Ratio, owner_by: 'OpenAI' });

    const svip = await asUser(svipUser);
    expect(svip.usable_group).toEqual({ default: '默认分组', vip: 'vip分组', svip: '用户分组' });
    expect(svip.group_ratio).toEqual({ default: 1, vip: 1, svip: 1 });
    expect(svip.data.map((r) => [r.model_name, r.enable_groups])).toEqual([
      ['gpt-4o', ['default', 'svip', 'vip']],
      ['gpt-4o-mini', ['default', 'vip']],
      ['svip-only-model', ['svip']],
    ]);
  });

  it('tells nothing about the channels (names, keys, base URLs, ids)', async () => {
    const text = JSON.stringify(await asUser(svipUser)) + JSON.stringify(await anonymous());
    for (const secret of ['sk-secret', 'upstream-', '.invalid', 'premium', '"main"'])
      expect(text).not.toContain(secret);
    for (const r of (await asUser(svipUser)).data)
      expect(Object.keys(r).sort()).toEqual([
        'completion_ratio',
        'enable_groups',
        'model_name',
        'model_price',
        'model_ratio',
        'owner_by',
        'price_configured',
        'quota_type',
      ]);
  });

  it('a disabled channel takes its models out; enabling brings them back', async () => {
    expectSuccess(await root.put('/api/channel/', { id: channelIds['premium'], status: 2 }));
    const svip = await asUser(svipUser);
    expect(row(svip, 'svip-only-model')).toBeUndefined();
    expect(row(svip, 'gpt-4o')?.enable_groups).toEqual(['default', 'vip']);

    expectSuccess(await root.put('/api/channel/', { id: channelIds['premium'], status: 1 }));
    expect(row(await asUser(svipUser), 'svip-only-model')?.enable_groups).toEqual(['svip']);
  });

  it('ratios and prices follow PUT /api/option/', async () => {
    await setOption('ModelRatio', { 'gpt-4o': 2.5, 'gpt-4o-mini': 0.075 });
    await setOption('CompletionRatio', { 'gpt-4o': 4 });
    expect(row(await anonymous(), 'gpt-4o')).toMatchObject({
      quota_type: QuotaType.Ratio,
      model_ratio: 2.5,
      completion_ratio: 4,
      model_price: 0,
    });
    await setOption('ModelPrice', { 'gpt-4o-mini': 0.02 });
    expect(row(await anonymous(), 'gpt-4o-mini')).toMatchObject({
      quota_type: QuotaType.PerCall,
      model_price: 0.02,
      model_ratio: 0,
      completion_ratio: 0,
    });
  });

  it('a model without ratio or price is said to have none, with no invented ratio', async () => {
    await setOption('ModelRatio', { 'gpt-4o': 2.5 });
    await setOption('ModelPrice', {});
    expect(row(await anonymous(), 'gpt-4o-mini')).toMatchObject({
      price_configured: false,
      model_ratio: 0,
      completion_ratio: 0,
      model_price: 0,
    });
    expect(row(await anonymous(), 'gpt-4o')).toMatchObject({ price_configured: true });
    expectSuccess(await root.put('/api/option/', { key: 'SelfUseModeEnabled', value: 'true' }));
    expect(row(await anonymous(), 'gpt-4o-mini')).toMatchObject({
      price_configured: false,
      model_ratio: SELF_USE_MODEL_RATIO,
    });
    expectSuccess(await root.put('/api/option/', { key: 'SelfUseModeEnabled', value: 'false' }));
    await setOption('ModelRatio', { 'gpt-4o': 2.5, 'gpt-4o-mini': 0.075 });
    await setOption('ModelPrice', { 'gpt-4o-mini': 0.02 });
  });

  it('group_ratio follows GroupRatio, restricted to the usable groups', async () => {
    await setOption('GroupRatio', { default: 1, vip: 0.8, svip: 0.5, hidden: 3 });
    expect((await anonymous()).group_ratio).toEqual({ default: 1, vip: 0.8 });
    expect((await asUser(svipUser)).group_ratio).toEqual({ default: 1, vip: 0.8, svip: 0.5 });
  });

  it('usable_group follows UserUsableGroups', async () => {
    await setOption('UserUsableGroups', { default: '默认分组', svip: '超级分组' });
    const anon = await anonymous();
    expect(anon.usable_group).toEqual({ default: '默认分组', svip: '超级分组' });
    expect(anon.group_ratio).toEqual({ default: 1, svip: 0.5 });
    expect(row(anon, 'svip-only-model')?.enable_groups).toEqual(['svip']);
    expect(row(anon, 'gpt-4o')?.enable_groups).toEqual(['default', 'svip']);
    await setOption('UserUsableGroups', { default: '默认分组', vip: 'vip分组' });
  });

  it('refused option input changes nothing and appends nothing', async () => {
    const before = await anonymous();
    const events = countStoredEvents(t.dataDir);
    for (const [key, value] of [
      ['GroupRatio', '{not json'],
      ['ModelRatio', '[1,2]'],
      ['ModelPrice', '{"gpt-4o":"cheap"}'],
    ] as const) {
      const res = await root.put('/api/option/', { key, value });
      expect(res.body).toMatchObject({ success: false });
      expect(typeof res.body.message).toBe('string');
    }
    expect(await anonymous()).toEqual(before);
    expect(countStoredEvents(t.dataDir)).toBe(events);
  });

  it('an invalid session or a stray header is simply anonymous', async () => {
    const res = await request(t.url)
      .get('/api/pricing?group=svip')
      .set('Cookie', 'session=garbage')
      .set('New-Api-User', String(svipUser.userId));
    expect(res.body.usable_group).toEqual({ default: '默认分组', vip: 'vip分组' });
    expect(res.body.data.map((r: PricingRowDto) => r.model_name)).not.toContain('svip-only-model');
  });

  /** [model, ModelRatio, CompletionRatio, ModelPrice, group, GroupRatio, expected USD]. */
  const CASES: ReadonlyArray<
    [string, number | null, number | null, number | null, string, number, ModelPricesCase]
  > = [
    ['case-a', 1, null, null, 'default', 1, { prompt: 2, completion: 2 }],
    ['case-b', 2.5, 4, null, 'default', 1, { prompt: 5, completion: 20 }],
    ['case-c', 0.075, 4, null, 'vip', 0.5, { prompt: 0.075, completion: 0.3 }],
    ['case-d', 15, 2, null, 'vip', 2, { prompt: 60, completion: 120 }],
    ['case-e', 1, 3, 0.04, 'default', 1, { perCall: 0.04 }],
    ['case-f', null, null, 0.1, 'vip', 0.5, { perCall: 0.05 }],
    ['case-g', null, null, 0, 'default', 1, { perCall: 0 }],
  ];
  type ModelPricesCase = { prompt: number; completion: number } | { perCall: number };

  it('prices from the answer follow the page formulas (table of cases)', async () => {
    await addChannel('cases', CASES.map(([model]) => model).join(','), 'default,vip');
    const pick = (index: 1 | 2 | 3) =>
      Object.fromEntries(CASES.filter((c) => c[index] !== null).map((c) => [c[0], c[index]]));
    await setOption('ModelRatio', pick(1));
    await setOption('CompletionRatio', pick(2));
    await setOption('ModelPrice', pick(3));
    let groupRatios = '';
    for (const [model, , , , group, groupRatio, expected] of CASES) {
      const next = JSON.stringify({ default: 1, vip: 1, [group]: groupRatio });
      // An unchanged value records nothing: set only what changes.
      if (next !== groupRatios) await setOption('GroupRatio', (groupRatios = next));
      const answer = await anonymous();
      const found = row(answer, model);
      expect(found).toBeDefined();
      const prices = modelPrices(found!, answer.group_ratio[group]!);
      if ('perCall' in expected) {
        expect(prices.mode).toBe('price');
        if (prices.mode === 'price') expect(prices.perCall).toBeCloseTo(expected.perCall, 9);
      } else {
        expect(prices.mode).toBe('ratio');
        if (prices.mode === 'ratio') {
          expect(prices.prompt).toBeCloseTo(expected.prompt, 9);
          expect(prices.completion).toBeCloseTo(expected.completion, 9);
        }
      }
    }
  });
});
