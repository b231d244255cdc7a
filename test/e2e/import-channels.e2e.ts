/**
 * Channels, redemption codes and options of a one-api database through the built CLI (`npm run
 * build:server`): type renumbering, one-api's default base URL written in, config moves, an
 * unsupported type imported disabled, manual and automatic disables kept apart, a bad model mapping
 * dropped; an imported OpenAI channel relays and is charged, an unused code redeems once, a used one
 * does not, options read back (the secret never), and a second run imports nothing new. A row with
 * three keys becomes three channels (ids after the source's highest, each with its own key), a
 * Novita channel calls one-api's URL, and VolcEngine / BaiduV2 channels open and save in the console.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { readStoredEvents } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin } from '../support/gateway-http';
import { bcryptOf, key48, newApiDatabase, oneApiDatabase } from '../support/import-fixtures';
import { startGateway } from '../support/start-gateway';
import { CLI, runCli, runImportCli } from '../support/gateway-cli';

jest.setTimeout(180_000);

const CHANNEL_KEY = 'sk-upstream-imported-1';
const UNUSED_CODE = '0123456789abcdef0123456789abcdef';
const USED_CODE = 'fedcba9876543210fedcba9876543210';
const OIDC_SECRET = 'oidc-secret-value-42';
/** One source row with three keys (one line repeated): channels 10, 14 and 15. */
const MULTI_KEYS = ['sk-multi-first', 'sk-multi-second', 'sk-multi-third'];
const NOVITA_KEY = 'sk-novita-imported';

const channel = (id: number, over: Record<string, string | number | null>) => ({
  id,
  type: 1,
  key: `sk-key-${id}`,
  status: 1,
  name: `ch-${id}`,
  weight: 0,
  created_time: 1_700_000_000,
  base_url: '',
  models: `model-${id}`,
  group: 'default',
  used_quota: 0,
  priority: 0,
  ...over,
});

async function fixture(dir: string, upstreamUrl: string): Promise<string> {
  return oneApiDatabase(dir, {
    users: [
      {
        id: 1,
        username: 'root',
        password: await bcryptOf('rootpass1'),
        role: 100,
        status: 1,
        quota: 500000000,
        aff_code: 'r00t',
      },
      {
        id: 2,
        username: 'alice',
        password: await bcryptOf('alicepass'),
        role: 1,
        status: 1,
        quota: 3000000,
        aff_code: 'al1c',
      },
    ],
    tokens: [{ id: 1, user_id: 2, key: key48('A1b2C3'), name: 'old', unlimited_quota: true }],
    channels: [
      channel(1, {
        key: CHANNEL_KEY,
        name: 'openai-mock',
        base_url: upstreamUrl,
        models: 'gpt-4o-mini',
        group: 'default,vip',
        priority: 10,
        weight: 5,
        used_quota: 777,
        model_mapping: '{"gpt-4":"gpt-4o-mini"}',
      }),
      channel(2, { name: 'openai-default', models: 'gpt-4o' }),
      channel(3, { type: 36, name: 'deepseek', models: 'deepseek-chat' }),
      channel(4, {
        type: 3,
        name: 'azure',
        base_url: 'https://example.openai.azure.com',
        config: '{"api_version":"2024-02-01"}',
      }),
      channel(5, { type: 34, name: 'coze', base_url: '' }),
      channel(6, { name: 'off-by-hand', status: 2 }),
      channel(7, { name: 'off-by-system', status: 3 }),
      channel(8, { name: 'bad-mapping', model_mapping: '{"gpt-4": ' }),
      channel(9, { type: 2, name: 'api2d' }),
      channel(10, {
        key: [MULTI_KEYS[0], MULTI_KEYS[1], MULTI_KEYS[0], MULTI_KEYS[2]].join('\n'),
        name: 'multi',
        base_url: upstreamUrl,
        models: 'multi-model',
        group: 'default,vip',
        priority: 4,
        weight: 2,
        used_quota: 50,
      }),
      // Novita under a path prefix, as https://api.novita.ai/v3/openai is.
      channel(11, {
        type: 41,
        key: NOVITA_KEY,
        name: 'novita',
        base_url: `${upstreamUrl}/v3/openai`,
        models: 'gpt-3.5-turbo', // priced by default, served by no other channel
      }),
      channel(12, { type: 40, name: 'doubao', key: 'ark-key', models: 'doubao-pro' }),
      channel(13, { type: 47, name: 'qianfan', key: 'bce-v3-key', models: 'ernie-4.0' }),
    ],
    redemptions: [
      { id: 1, user_id: 1, key: UNUSED_CODE, status: 1, name: 'gift', quota: 100000 },
      {
        id: 2,
        user_id: 1,
        key: USED_CODE,
        status: 3,
        name: 'spent',
        quota: 200000,
        redeemed_time: 1_700_000_500,
      },
    ],
    options: [
      { key: 'OidcClientId', value: 'client-1' },
      { key: 'OidcClientSecret', value: OIDC_SECRET },
      { key: 'SystemName', value: 'Imported Gate' },
      { key: 'Theme', value: 'berry' },
    ],
  });
}

interface Channel {
  id: number;
  type: number;
  name: string;
  base_url: string;
  other: string;
  status: number;
  models: string;
  group: string;
  priority: number;
  weight: number;
  used_quota: number;
  model_mapping: string;
  other_info: string;
}

describe('import of channels, redemption codes and options (built CLI)', () => {
  const work = mkdtempSync(join(tmpdir(), 'tollgate-import-channels-'));

  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build:server` first');
  });

  it('imports them, relays through an imported channel, redeems, reads options back', async () => {
    const upstream = await MockUpstream.start();
    const file = await fixture(mkdtempSync(join(work, 'src-')), upstream.url);
    const dataDir = mkdtempSync(join(work, 'data-'));
    try {
      const dry = runImportCli(dataDir, [file, '--dry-run']);
      expect(dry.code).toBe(0);
      expect(dry.out).toMatch(/channels: read 13, imported 15, already imported 0, skipped 0/);
      expect(dry.out).toMatch(
        /channels #10 changed key: 3 keys on separate lines: imported as channels 10, 14, 15/,
      );
      expect(dry.out).toMatch(/redemptions: read 2, imported 2/);
      expect(dry.out).toMatch(/options: read 4, imported 3, already imported 0, skipped 1/);
      expect(readdirSync(dataDir).filter((f) => f !== '.session-secret')).toEqual([]);

      const first = runImportCli(dataDir, [file]);
      expect(first.code).toBe(0);
      expect(first.out).toMatch(/channels: read 13, imported 15, already imported 0, skipped 0/);
      expect(first.out).toMatch(
        /channels #10 changed key: 3 keys on separate lines: imported as channels 10, 14, 15/,
      );
      expect(first.out).toMatch(/channels #10 dropped key: 1 repeated line/);
      expect(first.out).toMatch(
        /channels #11 changed type: one-api type 41 \(Novita\) is new-api type 8/,
      );
      expect(first.out).toMatch(/redemptions: read 2, imported 2, already imported 0, skipped 0/);
      expect(first.out).toMatch(/options: read 4, imported 3, already imported 0, skipped 1/);
      // The report: renumbered type, base URL written in, unsupported type, dropped mapping,
      // unknown option; never a key, a code or a secret.
      expect(first.out).toMatch(
        /channels #3 changed type: one-api type 36 \(DeepSeek\) is new-api type 43/,
      );
      expect(first.out).toMatch(/channels #9 changed base_url: .*https:\/\/oa\.api2d\.net/);
      expect(first.out).toMatch(/channels #5 changed status: imported disabled: .*Coze/);
      expect(first.out).toMatch(/channels #8 dropped model_mapping/);
      expect(first.out).toMatch(/channels #4 changed other: config\.api_version moved to other/);
      expect(first.out).toMatch(/options #4 skipped Theme: no counterpart in Tollgate/);
      expect(first.out).toMatch(/options #1 changed OidcClientId: renamed oidc\.client_id/);
      for (const secret of [
        CHANNEL_KEY,
        UNUSED_CODE,
        USED_CODE,
        OIDC_SECRET,
        NOVITA_KEY,
        ...MULTI_KEYS,
      ])
        expect(first.out).not.toContain(secret);

      const second = runImportCli(dataDir, [file]);
      expect(second.code).toBe(0);
      expect(second.out).toMatch(/channels: read 13, imported 0, already imported 15, skipped 0/);
      expect(second.out).toMatch(/redemptions: read 2, imported 0, already imported 2, skipped 0/);
      expect(second.out).toMatch(/options: read 4, imported 0, already imported 3, skipped 1/);
      const importedChannels = readStoredEvents(dataDir, { type: 'ChannelImported' });
      expect(importedChannels).toHaveLength(15);
      // The further channels of row 10 come from that row (their event metadata says so).
      expect(
        importedChannels
          .filter((e) => (e.metadata as { import?: { rowId?: number } }).import?.rowId === 10)
          .map((e) => (e.data as { channelId: number }).channelId)
          .sort((a, b) => a - b),
      ).toEqual([10, 14, 15]);
      expect(readStoredEvents(dataDir, { type: 'RedemptionImported' })).toHaveLength(2);
      const secrets = readStoredEvents(dataDir, { type: 'SecretOptionChanged' });
      expect(secrets).toHaveLength(1);
      expect(JSON.stringify(secrets)).not.toContain(OIDC_SECRET);
      const stored = JSON.stringify(readStoredEvents(dataDir));
      for (const key of [CHANNEL_KEY, NOVITA_KEY, ...MULTI_KEYS]) expect(stored).not.toContain(key);

      const gateway = await startGateway({ dataDir });
      try {
        const url = gateway.url;
        const root = await gatewayLogin(url, 'root', 'rootpass1');

        const list = await gatewayApi(url, '/api/channel/?p=0&page_size=100&id_sort=true', {
          method: 'GET',
          ...root,
        });
        const byId = new Map((list.data as Channel[]).map((c) => [c.id, c]));
        expect(byId.size).toBe(15);
        expect(byId.get(1)).toMatchObject({
          type: 1,
          base_url: upstream.url,
          status: 1,
          models: 'gpt-4o-mini',
          group: 'default,vip',
          priority: 10,
          weight: 5,
          used_quota: 777,
          model_mapping: '{"gpt-4":"gpt-4o-mini"}',
        });
        expect(byId.get(2)).toMatchObject({ type: 1, base_url: '', status: 1, models: 'gpt-4o' });
        expect(byId.get(3)).toMatchObject({ type: 43, base_url: '', status: 1 });
        expect(byId.get(4)).toMatchObject({
          type: 3,
          base_url: 'https://example.openai.azure.com',
          other: '2024-02-01',
          status: 1,
        });
        expect(byId.get(5)).toMatchObject({ type: 0, status: 2 });
        expect(byId.get(6)).toMatchObject({ status: 2 });
        expect(byId.get(7)).toMatchObject({ status: 3 });
        expect(JSON.parse(byId.get(7)!.other_info)).toMatchObject({
          status_reason: 'disabled automatically in one-api',
        });
        expect(byId.get(8)).toMatchObject({ status: 1, model_mapping: '' });
        expect(byId.get(9)).toMatchObject({ type: 1, base_url: 'https://oa.api2d.net' });

        // Row 10's three keys: channels 10, 14, 15, configured as the row; the used quota stays
        // with the row's own channel.
        const multiConfig = {
          type: 1,
          base_url: upstream.url,
          status: 1,
          models: 'multi-model',
          group: 'default,vip',
          priority: 4,
          weight: 2,
        };
        expect(byId.get(10)).toMatchObject({ ...multiConfig, name: 'multi', used_quota: 50 });
        expect(byId.get(14)).toMatchObject({ ...multiConfig, name: 'multi #2', used_quota: 0 });
        expect(byId.get(15)).toMatchObject({ ...multiConfig, name: 'multi #3', used_quota: 0 });
        // Each has its own key: found by its exact key, and tested with it at the mock upstream.
        for (const [i, id] of [10, 14, 15].entries()) {
          const found = await gatewayApi(
            url,
            `/api/channel/search?keyword=${encodeURIComponent(MULTI_KEYS[i]!)}`,
            { method: 'GET', ...root },
          );
          expect((found.data as Channel[]).map((c) => c.id)).toEqual([id]);
          upstream.reset();
          await gatewayApi(url, `/api/channel/test/${id}`, { method: 'GET', ...root });
          expect(upstream.requestsTo('/chat/completions').map((r) => r.key)).toEqual([
            MULTI_KEYS[i],
          ]);
        }
        upstream.reset();

        // Novita: Custom at the URL one-api called, <base>/chat/completions.
        expect(byId.get(11)).toMatchObject({
          type: 8,
          base_url: `${upstream.url}/v3/openai/chat/completions`,
          status: 1,
        });

        // VolcEngine (45) and BaiduV2 (46) open and save through the console like other types.
        expect(byId.get(12)).toMatchObject({ type: 45, base_url: '', status: 1 });
        expect(byId.get(13)).toMatchObject({ type: 46, base_url: '', status: 1 });
        for (const id of [12, 13]) {
          const opened = (await gatewayApi(url, `/api/channel/${id}`, { method: 'GET', ...root }))
            .data as Channel & Record<string, unknown>;
          // What the edit form sends (formToRequest + id): its fields, the key left empty (kept).
          const form = Object.fromEntries(
            [
              'type',
              'base_url',
              'other',
              'openai_organization',
              'max_input_tokens',
              'models',
              'group',
              'model_mapping',
              'status_code_mapping',
              'setting',
              'test_model',
              'tag',
              'weight',
              'auto_ban',
            ].map((field) => [field, opened[field] ?? '']),
          );
          const saved = await gatewayApi(url, '/api/channel/', {
            method: 'PUT',
            body: { ...form, id, key: '', name: `${opened.name}-edited`, priority: 7 },
            ...root,
          });
          expect(saved.data).toMatchObject({ id, type: opened.type, priority: 7 });
          const reread = (await gatewayApi(url, `/api/channel/${id}`, { method: 'GET', ...root }))
            .data as Channel;
          expect(reread).toMatchObject({
            type: opened.type,
            name: `${opened.name}-edited`,
            priority: 7,
            status: 1,
          });
        }

        const history = await gatewayApi(url, '/api/channel/3/history?p=0&page_size=10', {
          method: 'GET',
          ...root,
        });
        expect(JSON.stringify(history.data)).toMatch(/imported from one-api/);

        // A token made through the API relays to the imported channel at the mock, and is charged.
        const alice = await gatewayLogin(url, 'alice', 'alicepass');
        await gatewayApi(url, '/api/token/', {
          method: 'POST',
          body: { name: 'fresh', remain_quota: 500000 },
          ...alice,
        });
        const tokens = await gatewayApi(url, '/api/token/?p=0&size=10', {
          method: 'GET',
          ...alice,
        });
        const fresh = (tokens.data as Array<{ name: string; key: string }>).find(
          (t) => t.name === 'fresh',
        )!;
        const bearer = fresh.key.startsWith('sk-') ? fresh.key : `sk-${fresh.key}`;
        const before = (await gatewayApi(url, '/api/user/self', { method: 'GET', ...alice }))
          .data as { quota: number; used_quota: number };
        const res = await request(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'gpt-4o-mini',
            messages: [{ role: 'user', content: 'hi' }],
          }),
        });
        expect(res.statusCode).toBe(200);
        await res.body.text();
        expect(upstream.requests.some((r) => r.key === CHANNEL_KEY)).toBe(true);
        let used = 777;
        for (let i = 0; i < 50 && used === 777; i++) {
          await new Promise((r) => setTimeout(r, 100));
          const again = await gatewayApi(url, '/api/channel/1', { method: 'GET', ...root });
          used = (again.data as Channel).used_quota;
        }
        expect(used).toBeGreaterThan(777);
        const after = (await gatewayApi(url, '/api/user/self', { method: 'GET', ...alice }))
          .data as { quota: number; used_quota: number };
        expect(after.used_quota).toBe(before.used_quota + (used - 777));

        // The imported Novita channel relays to exactly <base>/chat/completions.
        const novita = await request(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'gpt-3.5-turbo',
            messages: [{ role: 'user', content: 'hi' }],
          }),
        });
        const novitaText = await novita.body.text();
        expect(`${novita.statusCode} ${novitaText}`).toMatch(/^200 /);
        expect(
          upstream.requests.filter((r) => r.key === NOVITA_KEY).map((r) => [r.method, r.path]),
        ).toEqual([['POST', '/v3/openai/chat/completions']]);

        // An unused imported code redeems once; the used one stays used.
        const topup = await gatewayApi(url, '/api/user/topup', {
          method: 'POST',
          body: { key: UNUSED_CODE },
          ...alice,
        });
        expect(topup.data).toBe(100000);
        await expect(
          gatewayApi(url, '/api/user/topup', {
            method: 'POST',
            body: { key: UNUSED_CODE },
            ...alice,
          }),
        ).rejects.toThrow();
        await expect(
          gatewayApi(url, '/api/user/topup', {
            method: 'POST',
            body: { key: USED_CODE },
            ...alice,
          }),
        ).rejects.toThrow();
        const codes = await gatewayApi(url, '/api/redemption/?p=1&page_size=10', {
          method: 'GET',
          ...root,
        });
        const codeList = (codes.data.items ?? codes.data) as Array<{
          id: number;
          status: number;
          used_user_id: number;
        }>;
        expect(codeList.find((c) => c.id === 1)).toMatchObject({ status: 3, used_user_id: 2 });
        expect(codeList.find((c) => c.id === 2)).toMatchObject({ status: 3 });

        // Options: the renamed key and a plain one read back; the secret is never listed.
        const options = await gatewayApi(url, '/api/option/', { method: 'GET', ...root });
        const values = Object.fromEntries(
          (options.data as Array<{ key: string; value: string }>).map((o) => [o.key, o.value]),
        );
        expect(values['oidc.client_id']).toBe('client-1');
        expect(values['SystemName']).toBe('Imported Gate');
        expect(values).not.toHaveProperty('oidc.client_secret');
        expect(values).not.toHaveProperty('Theme');
        expect(JSON.stringify(options.data)).not.toContain(OIDC_SECRET);

        // New channels and codes take ids after the imported ones.
        await gatewayApi(url, '/api/channel/', {
          method: 'POST',
          body: { type: 1, name: 'new-one', key: 'sk-new', models: 'x-model', group: 'default' },
          ...root,
        });
        const after2 = await gatewayApi(url, '/api/channel/?p=0&page_size=100&id_sort=true', {
          method: 'GET',
          ...root,
        });
        const created = (after2.data as Channel[]).find((c) => c.name === 'new-one');
        // After the source's 13 rows and the two further channels of row 10.
        expect(created?.id).toBe(16);
      } finally {
        await gateway.stop();
      }
      // The channel's used quota (the source's plus this run's receipt) agrees with the ledger.
      const verify = runCli(dataDir, ['ledger:verify'], { LOG_LEVEL: 'error' });
      expect(verify.out).toContain('Ledger OK');
      expect(verify.code).toBe(0);
    } finally {
      await upstream.close();
    }
  });
  it('imports a new-api database as it is: numbers kept, tag, status codes, deleted codes', async () => {
    const vertexKey = JSON.stringify({ type: 'service_account', project_id: 'p1' }, null, 2);
    const file = newApiDatabase(mkdtempSync(join(work, 'src-')), {
      users: [{ id: 1, username: 'root', password: await bcryptOf('rootpass1'), role: 100 }],
      channels: [
        channel(1, {
          type: 36,
          name: 'suno',
          models: 'suno_music,suno_lyrics',
          tag: 'music',
          status_code_mapping: '{"429":"500"}',
          auto_ban: 0,
          param_override: '{"temperature":0}',
        }),
        channel(2, { type: 42, name: 'mistral', models: 'mistral-large' }),
        channel(3, {
          type: 41,
          name: 'vertex',
          key: vertexKey,
          other: 'us-central1',
          models: 'gemini-1.5-pro',
          status: 3,
          other_info: '{"status_reason":"401 unauthorized","status_time":1700000900}',
        }),
      ],
      redemptions: [
        { id: 1, key: UNUSED_CODE, status: 3, quota: 10, used_user_id: 1, redeemed_time: 1 },
        { id: 2, key: USED_CODE, status: 1, quota: 10, deleted_at: '2025-01-01 00:00:00+00:00' },
      ],
      options: [
        { key: 'oidc.client_id', value: 'na-client' },
        { key: 'RegisterEnabled', value: 'maybe' },
        { key: 'general_setting.ping_interval_enabled', value: 'true' },
      ],
    });
    const dataDir = mkdtempSync(join(work, 'data-'));
    const run = runImportCli(dataDir, [file]);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/channels: read 3, imported 3/);
    expect(run.out).toMatch(/redemptions: read 2, imported 2/);
    expect(run.out).toMatch(/options: read 3, imported 1, already imported 0, skipped 2/);
    expect(run.out).not.toMatch(/channels #2 changed type/);
    expect(run.out).not.toMatch(/channels #1 dropped param_override/);
    expect(run.out).toMatch(/options #\d skipped RegisterEnabled: invalid value/);
    expect(run.out).not.toContain('service_account');
    const channels = new Map(
      readStoredEvents(dataDir, { type: 'ChannelImported' }).map((e) => {
        const d = e.data as { channelId: number; config: Record<string, unknown> };
        return [d.channelId, e.data as Record<string, unknown> & typeof d];
      }),
    );
    expect(channels.get(1)).toMatchObject({
      status: 1,
      config: {
        type: 36,
        tag: 'music',
        statusCodeMapping: '{"429":"500"}',
        autoBan: false,
        paramOverride: '{"temperature":0}',
      },
    });
    expect(channels.get(2)).toMatchObject({ status: 1, config: { type: 42, baseUrl: '' } });
    expect(channels.get(3)).toMatchObject({
      status: 3,
      statusReason: '401 unauthorized',
      config: { type: 41, other: '{"default":"us-central1"}' },
    });
    const codes = readStoredEvents(dataDir, { type: 'RedemptionImported' }).map((e) => e.data);
    expect(codes).toEqual([
      expect.objectContaining({ redemptionId: 1, status: 3, usedUserId: 1 }),
      expect.objectContaining({ redemptionId: 2, deleted: true }),
    ]);
  });
});
