import request from 'supertest';
import type { UserDto } from '@tollgate/contracts';
import { ROOT_STARTING_QUOTA } from '../../apps/gateway/src/accounts/root-account';
import {
  PasswordHasher,
  PasswordQueueFullError,
} from '../../apps/gateway/src/infrastructure/password-hasher';
import { expectFailure, expectSuccess, readStoredEvents } from '../support/e2e-helpers';
import {
  ConsoleClient,
  createAdmin,
  loginRoot,
  startTestApp,
  type TestApp,
} from '../support/test-app';

/** The fields GET /api/user/:id may return (UserDto), nothing internal. */
const USER_DTO_KEYS = [
  'DeletedAt',
  'aff_code',
  'aff_count',
  'aff_history_quota',
  'aff_quota',
  'created_at',
  'display_name',
  'email',
  'github_id',
  'group',
  'id',
  'inviter_id',
  'linux_do_id',
  'oidc_id',
  // The periodic budget and its use of the current period (docs/budgets.md).
  'period',
  'period_quota',
  'period_reset_at',
  'period_used',
  'quota',
  'remark',
  'request_count',
  'role',
  'setting',
  'status',
  'telegram_id',
  'used_quota',
  'username',
  'wechat_id',
];

const FORBIDDEN_MANAGE = '无权更新同权限等级或更高权限等级的用户信息';
const FORBIDDEN_VIEW = '无权获取同级或更高等级用户的信息';

describe('user management (管理用户)', () => {
  let t: TestApp;
  let root: ConsoleClient;

  beforeAll(async () => {
    t = await startTestApp();
    root = await loginRoot(t.url);
  });
  afterAll(() => t.close());

  const login = (username: string, password = 'password123') =>
    request(t.url).post('/api/user/login').send({ username, password });

  async function findId(username: string): Promise<number> {
    const found = await root.get(
      `/api/user/search?keyword=${encodeURIComponent(username)}&page_size=100`,
    );
    const item = (found.body.data.items as UserDto[]).find((u) => u.username === username);
    if (!item) throw new Error(`${username} not found`);
    return item.id;
  }

  /** Root adds an ordinary user through POST /api/user/ and answers its id. */
  async function createUser(
    username: string,
    displayName?: string,
    password = 'password123',
  ): Promise<number> {
    const res = await root.post('/api/user/', {
      username,
      password,
      ...(displayName === undefined ? {} : { display_name: displayName }),
    });
    expectSuccess(res);
    return findId(username);
  }

  const getUser = async (id: number): Promise<UserDto> => {
    const res = await root.get(`/api/user/${id}`);
    expect(res.body.success).toBe(true);
    return res.body.data as UserDto;
  };
  const ids = (res: request.Response) => (res.body.data.items as UserDto[]).map((u) => u.id);
  const names = (res: request.Response) =>
    (res.body.data.items as UserDto[]).map((u) => u.username);

  describe('listing, search and reading', () => {
    const NATO = [
      'alpha',
      'bravo',
      'charlie',
      'delta',
      'echo',
      'foxtrot',
      'golf',
      'hotel',
      'india',
      'juliet',
      'kilo',
      'lima',
    ];
    const displayOf: Record<string, string> = { charlie: 'Chuck Norris', delta: 'Dee Dee' };
    const idOf: Record<string, number> = {};

    beforeAll(async () => {
      for (const name of NATO)
        idOf[name] = await createUser(name, displayOf[name] ?? `User ${name}`);
    });

    it('lists users newest first in 1-based pages of the requested size', async () => {
      const all = [...NATO.map((n) => idOf[n]!), 1].sort((a, b) => b - a);
      expect(all).toHaveLength(13);

      const page1 = await root.get('/api/user/?p=1&page_size=5');
      expect(page1.status).toBe(200);
      expect(page1.body.success).toBe(true);
      expect(page1.body.data).toMatchObject({ total: 13, page: 1, page_size: 5 });
      expect(ids(page1)).toEqual(all.slice(0, 5));
      const page2 = await root.get('/api/user/?p=2&page_size=5');
      expect(page2.body.data).toMatchObject({ total: 13, page: 2, page_size: 5 });
      expect(ids(page2)).toEqual(all.slice(5, 10));
      const page3 = await root.get('/api/user/?p=3&page_size=5');
      expect(ids(page3)).toEqual(all.slice(10));
      expect(ids(page3).at(-1)).toBe(1); // root is the oldest
      const beyond = await root.get('/api/user/?p=4&page_size=5');
      expect(beyond.body.data).toEqual({ items: [], total: 13, page: 4, page_size: 5 });

      // Defaults: first page, 10 rows; p=0 means the first page too.
      const byDefault = await root.get('/api/user/');
      expect(byDefault.body.data).toMatchObject({ total: 13, page: 1, page_size: 10 });
      expect(ids(byDefault)).toEqual(all.slice(0, 10));
      expect(ids(await root.get('/api/user/?p=0'))).toEqual(all.slice(0, 10));

      // Rows are UserDtos: no hash, no lookup fields.
      for (const item of page1.body.data.items as object[])
        expect(Object.keys(item).sort()).toEqual(USER_DTO_KEYS);
      expect(JSON.stringify(byDefault.body)).not.toMatch(
        /argon2|password|username_lower|access_token/,
      );

      // Out-of-range page sizes are rejected, not silently served.
      expect((await root.get('/api/user/?p=1&page_size=101')).body.success).toBe(false);
      expect((await root.get('/api/user/?p=-1')).body.success).toBe(false);
    });

    it('searches by username, display name and id, case-insensitively, and by group', async () => {
      const search = (query: string) => root.get(`/api/user/search?${query}`);
      expect(names(await search('keyword=bravo'))).toEqual(['bravo']);
      expect(names(await search('keyword=BRA'))).toEqual(['bravo']);
      expect(names(await search('keyword=norris'))).toEqual(['charlie']);
      expect(names(await search('keyword=Dee%20Dee'))).toEqual(['delta']);
      const byId = await search(`keyword=${idOf['delta']}`);
      expect(names(byId)).toEqual(['delta']);
      expect(byId.body.data).toMatchObject({ total: 1, page: 1 });
      // The keyword is text, not a pattern.
      expect((await search('keyword=.*')).body.data.total).toBe(0);
      expect((await search('keyword=nobody-here')).body.data).toEqual({
        items: [],
        total: 0,
        page: 1,
        page_size: 10,
      });

      for (const name of ['echo', 'foxtrot'])
        expectSuccess(await root.put('/api/user/', { id: idOf[name], group: 'vip' }));
      expect(names(await search('group=vip'))).toEqual(['foxtrot', 'echo']);
      expect(names(await search('keyword=echo&group=vip'))).toEqual(['echo']);
      expect((await search('keyword=echo&group=default')).body.data.total).toBe(0);
      const defaults = await search('group=default&p=2&page_size=3');
      expect(defaults.body.data).toMatchObject({ total: 11, page: 2, page_size: 3 });
      expect(defaults.body.data.items).toHaveLength(3);
      // An empty search is the plain list.
      expect((await search('keyword=')).body.data.total).toBe(13);
    });

    it('reads one user by id; unknown and malformed ids fail', async () => {
      const alpha = await getUser(idOf['alpha']!);
      expect(alpha).toMatchObject({
        id: idOf['alpha'],
        username: 'alpha',
        display_name: 'User alpha',
        role: 1,
        status: 1,
        group: 'default',
        quota: 0,
        DeletedAt: null,
      });
      expect(Object.keys(alpha).sort()).toEqual(USER_DTO_KEYS);
      expectFailure(await root.get('/api/user/99999'), '用户不存在');
      expectFailure(await root.get('/api/user/abc'), '无效的参数');
    });
  });

  describe('create (POST /api/user/)', () => {
    it('creates an ordinary user who can then log in', async () => {
      expectSuccess(
        await root.post('/api/user/', {
          username: 'newbie',
          display_name: 'New Bee',
          password: 'password123',
        }),
      );
      const newbie = await new ConsoleClient(t.url).login('newbie', 'password123');
      const self = (await newbie.get('/api/user/self')).body.data;
      expect(self).toMatchObject({
        username: 'newbie',
        display_name: 'New Bee',
        role: 1,
        status: 1,
        group: 'default',
        DeletedAt: null,
      });

      expectSuccess(await root.post('/api/user/', { username: 'plain', password: 'password123' }));
      expect((await getUser(await findId('plain'))).display_name).toBe('plain');
    });

    it('rejects bad input with a message and creates nothing', async () => {
      const totalBefore = (await root.get('/api/user/')).body.data.total as number;
      const idsAllocated = readStoredEvents(t.dataDir, { streamId: 'seq-user' }).length;
      const eventsBefore = readStoredEvents(t.dataDir).length;
      const cases: Array<[object, string | null]> = [
        [{ username: 'shorty', password: 'short' }, '密码长度不得小于 8 位！'],
        [{ username: 'longpw', password: 'p'.repeat(21) }, '密码长度不得超过 20 位'],
        [{ username: '', password: 'password123' }, '用户名不能为空'],
        [{ username: 'u'.repeat(21), password: 'password123' }, '用户名长度不得超过 20 位'],
        [
          { username: 'has space', password: 'password123' },
          '用户名只能包含英文字母、数字和 _ . -',
        ],
        [
          { username: 'longdisplay', display_name: 'd'.repeat(21), password: 'password123' },
          '显示名称长度不得超过 20 位',
        ],
        [{ username: 'newbie', password: 'password123' }, '用户名已存在'],
        [{ username: 'NEWBIE', password: 'password123' }, '用户名已存在'],
        [{ username: 'nopassword' }, null],
        [{ password: 'password123' }, null],
        [{ username: 42, password: 'password123' }, null],
      ];
      for (const [body, message] of cases) {
        const res = await root.post('/api/user/', body);
        if (message === null) {
          expect(res.status).toBe(200);
          expect(res.body.success).toBe(false);
          expect(res.body.message).toMatch(/^输入不合法/);
        } else expectFailure(res, message);
      }
      expect((await root.get('/api/user/')).body.data.total).toBe(totalBefore);
      for (const name of ['shorty', 'longpw', 'longdisplay', 'nopassword'])
        expect((await root.get(`/api/user/search?keyword=${name}`)).body.data.total).toBe(0);
      // Validation happens before any append: no id was spent, no event written.
      expect(readStoredEvents(t.dataDir, { streamId: 'seq-user' })).toHaveLength(idsAllocated);
      expect(readStoredEvents(t.dataDir)).toHaveLength(eventsBefore);
    });
  });

  describe('update (PUT /api/user/)', () => {
    it('changes the display name and nothing else', async () => {
      const id = await createUser('mike', 'Mike');
      const before = await getUser(id);
      expectSuccess(await root.put('/api/user/', { id, display_name: 'Michael' }));
      expect(await getUser(id)).toEqual({ ...before, display_name: 'Michael' });
      const mike = await new ConsoleClient(t.url).login('mike', 'password123');
      expect((await mike.get('/api/user/self')).body.data.display_name).toBe('Michael');
    });

    it('sets a new password: the user logs in with it, the old one and old sessions stop working', async () => {
      const id = await createUser('november');
      const session = await new ConsoleClient(t.url).login('november', 'password123');
      expectFailure(
        await root.put('/api/user/', { id, password: 'short' }),
        '密码长度不得小于 8 位！',
      );
      expect((await login('november', 'password123')).body.success).toBe(true);

      expectSuccess(await root.put('/api/user/', { id, password: 'brandnew123' }));
      expect((await login('november', 'brandnew123')).body).toMatchObject({
        success: true,
        data: { id, username: 'november' },
      });
      expectFailure(await login('november', 'password123'), '用户名或密码错误，或用户已被封禁');
      expect((await session.get('/api/user/self')).status).toBe(401);
      // An empty password field means "keep the password".
      expectSuccess(await root.put('/api/user/', { id, password: '', display_name: 'Nov' }));
      expect((await login('november', 'brandnew123')).body.success).toBe(true);
    });

    it('accepts only groups of GroupRatio (分组不存在 otherwise)', async () => {
      const id = await createUser('oscar');
      expectFailure(await root.put('/api/user/', { id, group: 'nonexistent' }), '分组不存在');
      expect((await getUser(id)).group).toBe('default');
      expectSuccess(await root.put('/api/user/', { id, group: 'svip' }));
      expect((await getUser(id)).group).toBe('svip');

      expectSuccess(
        await root.put('/api/option/', {
          key: 'GroupRatio',
          value: '{"default": 1, "vip": 1, "gold": 2}',
        }),
      );
      expectSuccess(await root.put('/api/user/', { id, group: 'gold' }));
      expect((await getUser(id)).group).toBe('gold');
      expectFailure(await root.put('/api/user/', { id, group: 'svip' }), '分组不存在');
      expect((await getUser(id)).group).toBe('gold');
      const groups = await root.get('/api/group/');
      expect(groups.body.data).toEqual(['default', 'vip', 'gold']);
    });

    it('validates every field before changing any', async () => {
      const id = await createUser('papa', 'Papa');
      const before = await getUser(id);
      const eventsBefore = readStoredEvents(t.dataDir).length;
      expectFailure(
        await root.put('/api/user/', { id, display_name: 'Changed', group: 'nope' }),
        '分组不存在',
      );
      expectFailure(
        await root.put('/api/user/', { id, display_name: 'Changed', password: 'short' }),
        '密码长度不得小于 8 位！',
      );
      expectFailure(
        await root.put('/api/user/', { id, display_name: 'x'.repeat(21), quota: 5 }),
        '显示名称长度不得超过 20 位',
      );
      expect(
        (await root.put('/api/user/', { id, display_name: 'Changed', quota: -1 })).body.success,
      ).toBe(false);
      // A balance that moved since the console showed it refuses the whole edit, rename included.
      const stale = await root.put('/api/user/', {
        id,
        username: 'papa2',
        display_name: 'Changed',
        quota: 5,
        expected_quota: before.quota + 1,
      });
      expect(stale.body.success).toBe(false);
      expect(stale.body.message).toContain('额度已发生变化');
      expect((await root.put('/api/user/', { display_name: 'no id' })).body.success).toBe(false);
      expectFailure(
        await root.put('/api/user/', { id: 99999, display_name: 'ghost' }),
        '用户不存在',
      );
      expect(await getUser(id)).toEqual(before);
      expect(readStoredEvents(t.dataDir)).toHaveLength(eventsBefore);
      expect((await login('papa')).body.success).toBe(true);
    });

    it('a password the hashing pool cannot take now (busy) changes nothing, rename included', async () => {
      const id = await createUser('busybee', 'Busy');
      const before = await getUser(id);
      const eventsBefore = readStoredEvents(t.dataDir).length;
      jest
        .spyOn(t.app.get(PasswordHasher), 'hash')
        .mockRejectedValueOnce(new PasswordQueueFullError());
      expectFailure(
        await root.put('/api/user/', {
          id,
          username: 'busybee2',
          display_name: 'Changed',
          password: 'newpassword1',
        }),
        '系统繁忙，请稍后再试',
      );
      expect(await getUser(id)).toEqual(before);
      expect(readStoredEvents(t.dataDir)).toHaveLength(eventsBefore);
      expect((await login('busybee')).body.success).toBe(true);
    });

    it('sets the quota as a QuotaAdjusted on billing-<id> with root as the actor', async () => {
      const id = await createUser('quebec');
      expectSuccess(await root.put('/api/user/', { id, quota: 123456 }));
      expect((await getUser(id)).quota).toBe(123456);
      const quebec = await new ConsoleClient(t.url).login('quebec', 'password123');
      expect((await quebec.get('/api/user/self')).body.data.quota).toBe(123456);

      const adjusted = readStoredEvents(t.dataDir, {
        streamId: `billing-${id}`,
        type: 'QuotaAdjusted',
      });
      expect(adjusted).toHaveLength(1);
      expect(adjusted[0]!.data).toEqual({
        userId: id,
        from: 0,
        to: 123456,
        delta: 123456,
        note: '',
      });
      expect(adjusted[0]!.metadata).toMatchObject({
        schemaVersion: 1,
        actor: { kind: 'user', id: 1, role: 100 },
        occurredAt: expect.any(String),
        correlationId: expect.any(String),
      });
      // The quota change is on the billing stream only, never on the user stream.
      expect(
        readStoredEvents(t.dataDir, { streamId: `user-${id}` }).map((e) => e.type),
      ).not.toContain('QuotaAdjusted');

      // The same quota again is no change; a lower one is a negative adjustment.
      expectSuccess(await root.put('/api/user/', { id, quota: 123456 }));
      expect(
        readStoredEvents(t.dataDir, { streamId: `billing-${id}`, type: 'QuotaAdjusted' }),
      ).toHaveLength(1);
      expectSuccess(await root.put('/api/user/', { id, quota: 100 }));
      const all = readStoredEvents(t.dataDir, { streamId: `billing-${id}`, type: 'QuotaAdjusted' });
      expect(all.map((e) => e.data)).toEqual([
        { userId: id, from: 0, to: 123456, delta: 123456, note: '' },
        { userId: id, from: 123456, to: 100, delta: -123356, note: '' },
      ]);
      expect((await getUser(id)).quota).toBe(100);
    });

    it('renames only to a free name: 用户名已存在 changes nothing; the old name is released', async () => {
      const romeo = await createUser('romeo', 'Romeo');
      const sierra = await createUser('sierra');
      const before = await getUser(romeo);
      const claimsOfSierra = readStoredEvents(t.dataDir, { streamId: 'username-sierra' }).length;

      expectFailure(
        await root.put('/api/user/', {
          id: romeo,
          username: 'sierra',
          display_name: 'Not Applied',
        }),
        '用户名已存在',
      );
      expectFailure(
        await root.put('/api/user/', { id: romeo, username: 'SIERRA' }),
        '用户名已存在',
      );
      expect(await getUser(romeo)).toEqual(before);
      expect((await getUser(sierra)).username).toBe('sierra');
      expect(readStoredEvents(t.dataDir, { streamId: 'username-sierra' })).toHaveLength(
        claimsOfSierra,
      );
      expect(
        readStoredEvents(t.dataDir, { streamId: `user-${romeo}`, type: 'UserRenamed' }),
      ).toHaveLength(0);
      expect((await login('romeo')).body.success).toBe(true);
      expect((await login('sierra')).body.success).toBe(true);

      expectFailure(
        await root.put('/api/user/', { id: romeo, username: 'with space' }),
        '用户名只能包含英文字母、数字和 _ . -',
      );
      expectSuccess(await root.put('/api/user/', { id: romeo, username: 'romeo2' }));
      expect((await getUser(romeo)).username).toBe('romeo2');
      expect((await login('romeo2')).body.data.id).toBe(romeo);
      expect((await login('romeo')).body.success).toBe(false);
      // The old name is free again; the new one is taken.
      expectSuccess(
        await request(t.url)
          .post('/api/user/register')
          .send({ username: 'romeo', password: 'password123' }),
      );
      expectFailure(
        await request(t.url)
          .post('/api/user/register')
          .send({ username: 'Romeo2', password: 'password123' }),
        '用户名已存在',
      );
      // A change of case only is a rename too.
      expectSuccess(await root.put('/api/user/', { id: romeo, username: 'Romeo2' }));
      expect((await getUser(romeo)).username).toBe('Romeo2');
      expect((await login('romeo2')).body.data.id).toBe(romeo);
    });
  });

  describe('manage (POST /api/user/manage)', () => {
    let admin: ConsoleClient;
    let otherAdmin: ConsoleClient;

    beforeAll(async () => {
      admin = await createAdmin(t.url, root, 'tango');
      otherAdmin = await createAdmin(t.url, root, 'uniform');
    });

    const manage = (client: ConsoleClient, id: number, action: string) =>
      client.post('/api/user/manage', { id, action });

    it('promotes (root only) and demotes, answering {role, status}', async () => {
      const id = await createUser('victor');
      const promoted = await manage(root, id, 'promote');
      expect(promoted.body).toEqual({ success: true, message: '', data: { role: 10, status: 1 } });
      expect((await getUser(id)).role).toBe(10);
      expectFailure(await manage(root, id, 'promote'), '该用户已经是管理员');

      const demoted = await manage(root, id, 'demote');
      expect(demoted.body).toEqual({ success: true, message: '', data: { role: 1, status: 1 } });
      expect((await getUser(id)).role).toBe(1);
      expectFailure(await manage(root, id, 'demote'), '该用户已经是普通用户');

      expectFailure(await manage(admin, id, 'promote'), '普通管理员用户无法提升其他用户为管理员');
      expect((await getUser(id)).role).toBe(1);
      expectFailure(await manage(root, 1, 'demote'), '无法降级超级管理员用户');
      expect((await getUser(1)).role).toBe(100);
    });

    it('disables and enables: a disabled user cannot log in and its session is refused as banned', async () => {
      const id = await createUser('whiskey');
      const session = await new ConsoleClient(t.url).login('whiskey', 'password123');
      expect((await session.get('/api/user/self')).status).toBe(200);

      expect((await manage(root, id, 'disable')).body).toEqual({
        success: true,
        message: '',
        data: { role: 1, status: 2 },
      });
      expect((await getUser(id)).status).toBe(2);
      // new-api's answers: the session gets HTTP 200 用户已被封禁; signing in reads as a wrong password.
      const denied = await session.get('/api/user/self');
      expect({ status: denied.status, body: denied.body }).toEqual({
        status: 200,
        body: { success: false, message: '用户已被封禁' },
      });
      expectFailure(await login('whiskey'), '用户名或密码错误，或用户已被封禁');

      // An admin may enable and disable ordinary users too.
      expect((await manage(admin, id, 'enable')).body).toEqual({
        success: true,
        message: '',
        data: { role: 1, status: 1 },
      });
      expect((await getUser(id)).status).toBe(1);
      expect((await login('whiskey')).body.success).toBe(true);
      // Disabling ended the session for good: enabling again does not revive it.
      expect((await session.get('/api/user/self')).status).toBe(401);
      expect((await manage(admin, id, 'disable')).body.data).toEqual({ role: 1, status: 2 });
      expect((await manage(root, id, 'enable')).body.data).toEqual({ role: 1, status: 1 });

      expectFailure(await manage(root, 1, 'disable'), '无法禁用超级管理员用户');
      expect((await getUser(1)).status).toBe(1);
      expect((await login('root', '123456')).body.success).toBe(true);
    });

    it('deletes: root is refused; a deleted user keeps its row with DeletedAt and takes no further action', async () => {
      expectFailure(await manage(root, 1, 'delete'), '不能删除超级管理员账户');
      expect((await getUser(1)).DeletedAt).toBeNull();

      const id = await createUser('xray');
      const session = await new ConsoleClient(t.url).login('xray', 'password123');
      const deleted = await manage(root, id, 'delete');
      expect(deleted.body.success).toBe(true);
      expect(Object.keys(deleted.body.data).sort()).toEqual(['role', 'status']);
      expect(deleted.body.data.role).toBe(1);

      const row = await getUser(id);
      expect(row.username).toBe('xray');
      expect(typeof row.DeletedAt).toBe('string');
      expect(Number.isNaN(Date.parse(row.DeletedAt!))).toBe(false);
      expect(names(await root.get('/api/user/search?keyword=xray'))).toEqual(['xray']);

      for (const action of ['enable', 'disable', 'promote', 'demote', 'delete'])
        expectFailure(await manage(root, id, action), '用户已注销');
      expectFailure(await root.put('/api/user/', { id, display_name: 'Ghost' }), '用户已注销');
      expect(await getUser(id)).toEqual(row);
      expect((await session.get('/api/user/self')).status).toBe(401);
      expectFailure(await login('xray'), '用户名或密码错误，或用户已被封禁');
      expectFailure(
        await request(t.url)
          .post('/api/user/register')
          .send({ username: 'xray', password: 'password123' }),
        '用户名已存在',
      );
    });

    it('an admin cannot manage, update or read an admin or root', async () => {
      const otherId = otherAdmin.userId;
      const before = await getUser(otherId);
      for (const action of ['disable', 'demote', 'delete', 'enable', 'promote']) {
        expectFailure(await manage(admin, otherId, action), FORBIDDEN_MANAGE);
        expectFailure(await manage(admin, 1, action), FORBIDDEN_MANAGE);
      }
      expectFailure(
        await admin.put('/api/user/', { id: otherId, display_name: 'Hijacked' }),
        FORBIDDEN_MANAGE,
      );
      expectFailure(
        await admin.put('/api/user/', { id: 1, password: 'hijacked123' }),
        FORBIDDEN_MANAGE,
      );
      expectFailure(await admin.put('/api/user/', { id: 1, quota: 999 }), FORBIDDEN_MANAGE);
      expect(await getUser(otherId)).toEqual(before);
      expect((await getUser(1)).quota).toBe(ROOT_STARTING_QUOTA);
      expect((await login('root', '123456')).body.success).toBe(true);

      expectFailure(await admin.get(`/api/user/${otherId}`), FORBIDDEN_VIEW);
      expectFailure(await admin.get('/api/user/1'), FORBIDDEN_VIEW);
      expect((await admin.get(`/api/user/${admin.userId}`)).body.data.username).toBe('tango');

      // Ordinary users stay within an admin's reach.
      const id = await createUser('yankee');
      expect((await admin.get(`/api/user/${id}`)).body.data.username).toBe('yankee');
      expectSuccess(await admin.put('/api/user/', { id, display_name: 'Yank', quota: 42 }));
      expect(await getUser(id)).toMatchObject({ display_name: 'Yank', quota: 42 });
      const adjusted = readStoredEvents(t.dataDir, {
        streamId: `billing-${id}`,
        type: 'QuotaAdjusted',
      });
      expect(adjusted.map((e) => e.metadata['actor'])).toEqual([
        { kind: 'user', id: admin.userId, role: 10 },
      ]);
      expectFailure(await manage(admin, id, 'promote'), '普通管理员用户无法提升其他用户为管理员');

      // Once demoted, the former admin is manageable by an admin.
      expect((await manage(root, otherId, 'demote')).body.data).toEqual({ role: 1, status: 1 });
      expect((await manage(admin, otherId, 'disable')).body.data).toEqual({ role: 1, status: 2 });
    });

    it('rejects unknown users and actions', async () => {
      expectFailure(await manage(root, 99999, 'disable'), '用户不存在');
      const bad = await manage(root, 1, 'explode');
      expect(bad.status).toBe(200);
      expect(bad.body.success).toBe(false);
      expect((await root.post('/api/user/manage', { action: 'disable' })).body.success).toBe(false);
    });
  });
});
