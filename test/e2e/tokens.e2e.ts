import { join } from 'node:path';
import type { CreateTokensResultDto, TokenDto } from '@tollgate/contracts';
import {
  MarkTokenExhaustedCommand,
  MarkTokenExpiredCommand,
} from '../../apps/gateway/src/tokens/commands/mark-token.handler';
import { TokenDirectory } from '../../apps/gateway/src/tokens/token-directory';
import { BalanceBook } from '../../apps/gateway/src/billing/balance-book';
import { CommandBus } from '@nestjs/cqrs';
import { allSqliteText, readStoredEvents, sqliteFileBytes } from '../support/e2e-helpers';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(60_000);

describe('tokens', () => {
  let t: TestApp;
  let alice: ConsoleClient;
  let bob: ConsoleClient;

  beforeAll(async () => {
    t = await startTestApp();
    alice = await registerAndLogin(t.url, 'alicetok');
    bob = await registerAndLogin(t.url, 'bobtok');
  });
  afterAll(() => t.close());

  async function create(client: ConsoleClient, body: object): Promise<CreateTokensResultDto> {
    const res = await client.post('/api/token/', body);
    expect(res.body).toMatchObject({ success: true });
    return res.body.data as CreateTokensResultDto;
  }

  it('creates, lists, reads, updates, toggles and deletes a token', async () => {
    const { count, ids } = await create(alice, {
      name: 'my key',
      remain_quota: 1000,
      allow_ips: '10.0.0.0/8\n::1',
      model_limits: 'gpt-4o, gpt-4o-mini',
      model_limits_enabled: true,
      rate_limit_rpm: 60,
    });
    expect(count).toBe(1);
    const id = ids[0]!;
    const list = (await alice.get('/api/token/?p=0&size=10')).body.data as TokenDto[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id,
      user_id: alice.userId,
      name: 'my key',
      status: 1,
      remain_quota: 1000,
      used_quota: 0,
      accessed_time: 0,
      expired_time: -1,
      unlimited_quota: false,
      model_limits: 'gpt-4o,gpt-4o-mini',
      allow_ips: '10.0.0.0/8\n::1',
      rate_limit_rpm: 60,
    });
    const key = list[0]!.key;
    expect(key).toMatch(/^[A-Za-z0-9]{48}$/);

    const bySearch = (await alice.get(`/api/token/search?token=sk-${key}`)).body.data as TokenDto[];
    expect(bySearch.map((x) => x.id)).toEqual([id]);
    const byName = (await alice.get('/api/token/search?keyword=my')).body.data as TokenDto[];
    expect(byName.map((x) => x.id)).toEqual([id]);
    const anyCase = (await alice.get('/api/token/search?keyword=MY%20K')).body.data as TokenDto[];
    expect(anyCase.map((x) => x.id)).toEqual([id]);

    const updated = await alice.put('/api/token/', { id, name: 'renamed', remain_quota: 5 });
    expect(updated.body).toMatchObject({
      success: true,
      data: { name: 'renamed', remain_quota: 5 },
    });
    const off = await alice.put('/api/token/?status_only=true', { id, status: 2 });
    expect(off.body).toMatchObject({ success: true, data: { status: 2 } });
    expect((await alice.get(`/api/token/${id}`)).body.data).toMatchObject({ status: 2, key });

    expect((await alice.delete(`/api/token/${id}/`)).body).toMatchObject({ success: true });
    expect((await alice.get(`/api/token/${id}`)).body).toMatchObject({ success: false });
  });

  it('batch-creates with a six-character suffix and answers how many', async () => {
    const { count, ids } = await create(bob, { name: 'batch', count: 3 });
    expect(count).toBe(3);
    const list = (await bob.get('/api/token/?p=0&size=100')).body.data as TokenDto[];
    const names = list.filter((x) => ids.includes(x.id)).map((x) => x.name);
    expect(names).toHaveLength(3);
    for (const name of names) expect(name).toMatch(/^batch-[A-Za-z0-9]{6}$/);
  });

  it('refuses bad input and changes nothing', async () => {
    const before = readStoredEvents(t.dataDir).length;
    for (const body of [
      { name: '' },
      { name: 'x'.repeat(31) },
      { name: 'a', expired_time: 1 },
      { name: 'a', allow_ips: 'not-an-ip' },
      { name: 'a', group: 'nosuchgroup' },
      { name: 'a', remain_quota: -1 },
      { name: 'a', count: 101 },
      { name: 'a', remain_quota: 'lots' },
    ]) {
      const res = await alice.post('/api/token/', body);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
    }
    expect((await alice.post('/api/token/', { name: '' })).body.message).toBe('令牌名称不能为空');
    expect(readStoredEvents(t.dataDir).length).toBe(before);
  });

  it("names only a group the admin made usable (UserUsableGroups) or the owner's own", async () => {
    const groupOf = async (group: string) =>
      (await alice.post('/api/token/', { name: 'g', group })).body;
    expect(await groupOf('vip')).toMatchObject({ success: true });
    expect(await groupOf('default')).toMatchObject({ success: true });
    const root = await loginRoot(t.url);
    const usable = JSON.stringify({ svip: 'svip' });
    expect(
      (await root.put('/api/option/', { key: 'UserUsableGroups', value: usable })).body,
    ).toMatchObject({
      success: true,
    });
    expect(await groupOf('svip')).toMatchObject({ success: true });
    expect(await groupOf('vip')).toEqual({ success: false, message: '无权使用该分组' });
    // The owner's own group stays usable whatever the option says.
    expect(await groupOf('default')).toMatchObject({ success: true });
  });

  it("a user never sees, edits, toggles or deletes another user's token", async () => {
    const { ids } = await create(alice, { name: 'private' });
    const id = ids[0]!;
    const notFound = { success: false, message: '令牌不存在' };
    expect((await bob.get(`/api/token/${id}`)).body).toEqual(notFound);
    expect((await bob.put('/api/token/', { id, name: 'stolen' })).body).toEqual(notFound);
    expect((await bob.put('/api/token/?status_only=true', { id, status: 2 })).body).toEqual(
      notFound,
    );
    expect((await bob.delete(`/api/token/${id}/`)).body).toEqual(notFound);
    const bobs = (await bob.get('/api/token/?p=0&size=100')).body.data as TokenDto[];
    expect(bobs.map((x) => x.id)).not.toContain(id);
    const key = ((await alice.get(`/api/token/${id}`)).body.data as TokenDto).key;
    expect((await bob.get(`/api/token/search?token=${key}`)).body.data).toEqual([]);
    expect((await alice.get(`/api/token/${id}`)).body.data).toMatchObject({
      name: 'private',
      status: 1,
    });
  });

  it('feeds the token directory and the balance book; expiry is recorded once and blocks enabling', async () => {
    const { ids } = await create(alice, { name: 'relay', remain_quota: 700 });
    const id = ids[0]!;
    const key = ((await alice.get(`/api/token/${id}`)).body.data as TokenDto).key;
    const directory = t.app.get(TokenDirectory);
    expect(directory.byKey(key)).toMatchObject({ id, userId: alice.userId, status: 1 });
    expect(directory.user(alice.userId)).toMatchObject({ username: 'alicetok' });
    expect(t.app.get(BalanceBook).tokenRemaining(id)).toBe(700);

    // Expiry needs a time in the past: set one that is about to pass, then let the relay mark it.
    // Two seconds ahead: one could already be past when a loaded machine handles the PUT.
    const soon = Math.floor(Date.now() / 1000) + 2;
    const update = await alice.put('/api/token/', {
      id,
      name: 'relay',
      remain_quota: 700,
      expired_time: soon,
    });
    expect(update.body).toMatchObject({ success: true });
    while (Math.floor(Date.now() / 1000) <= soon) await new Promise((r) => setTimeout(r, 100));
    const bus = t.app.get(CommandBus);
    expect(await bus.execute(new MarkTokenExpiredCommand(id))).not.toBeNull();
    expect(await bus.execute(new MarkTokenExpiredCommand(id))).toBeNull();
    expect(
      readStoredEvents(t.dataDir, { streamId: `token-${id}`, type: 'TokenStatusChanged' }),
    ).toHaveLength(1);
    const enable = await alice.put('/api/token/?status_only=true', { id, status: 1 });
    expect(enable.body).toEqual({
      success: false,
      message: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
    });
  });

  it('exhaustion is recorded once and enabling asks for more quota first', async () => {
    const { ids } = await create(alice, { name: 'dry', remain_quota: 0 });
    const id = ids[0]!;
    const bus = t.app.get(CommandBus);
    expect(await bus.execute(new MarkTokenExhaustedCommand(id))).not.toBeNull();
    expect(await bus.execute(new MarkTokenExhaustedCommand(id))).toBeNull();
    expect((await alice.get(`/api/token/${id}`)).body.data).toMatchObject({ status: 4 });
    expect((await alice.put('/api/token/?status_only=true', { id, status: 1 })).body).toEqual({
      success: false,
      message: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
    });
    await alice.put('/api/token/', { id, name: 'dry', remain_quota: 100 });
    const enabled = await alice.put('/api/token/?status_only=true', { id, status: 1 });
    expect(enabled.body).toMatchObject({ success: true, data: { status: 1, remain_quota: 100 } });
  });

  it('never stores a key in clear', async () => {
    const { ids } = await create(alice, { name: 'secret' });
    const key = ((await alice.get(`/api/token/${ids[0]}`)).body.data as TokenDto).key;
    expect(allSqliteText(join(t.dataDir, 'events.sqlite'))).not.toContain(key);
    expect(sqliteFileBytes(join(t.dataDir, 'events.sqlite')).includes(key)).toBe(false);
    expect(sqliteFileBytes(join(t.dataDir, 'read.sqlite')).includes(key)).toBe(false);
  });
});
