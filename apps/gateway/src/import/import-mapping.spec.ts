import { isSkipped, mapTokenRow, mapUserRow, type Mapped } from './import-mapping';

const AT = '2026-01-15T08:00:00.000Z';
const BCRYPT = `$2a$04$${'A'.repeat(53)}`;
const KEY = 'A1b2C3'.repeat(8);

const userRow = (over: Record<string, unknown> = {}) => ({
  id: 2,
  username: 'alice',
  password: BCRYPT,
  display_name: 'Alice',
  role: 1,
  status: 1,
  email: 'Alice@Example.com',
  github_id: '4242',
  wechat_id: '',
  oidc_id: null,
  access_token: 'a'.repeat(32),
  quota: 3_000_000,
  used_quota: 1234,
  request_count: 7,
  group: 'vip',
  aff_code: 'al1c',
  inviter_id: 1,
  ...over,
});
const tokenRow = (over: Record<string, unknown> = {}) => ({
  id: 5,
  user_id: 2,
  key: KEY,
  status: 1,
  name: 'main',
  created_time: 1_700_000_000,
  expired_time: -1,
  remain_quota: 800_000,
  unlimited_quota: 0,
  used_quota: 200,
  ...over,
});

function ok<T extends object>(mapped: Mapped<T>): T {
  if (isSkipped(mapped)) throw new Error(`skipped: ${mapped.skipped.reason}`);
  return mapped;
}

describe('mapUserRow', () => {
  it('maps a one-api row to UserImported + BalanceImported facts', () => {
    const { user, balance, items } = ok(mapUserRow('one-api', userRow({ lark_id: '' }), AT));
    expect(user).toMatchObject({
      userId: 2,
      username: 'alice',
      displayName: 'Alice',
      passwordHash: BCRYPT,
      role: 1,
      status: 1,
      group: 'vip',
      email: 'alice@example.com',
      emailVerified: true,
      identities: { github: '4242' },
      accessToken: 'a'.repeat(32),
      affCode: 'al1c',
      inviterId: 1,
      deleted: false,
      source: { project: 'one-api', table: 'users', rowId: 2, importedAt: AT },
    });
    expect(balance).toEqual({
      quota: 3_000_000,
      usedQuota: 1234,
      requestCount: 7,
      affCount: 0,
      affQuota: 0,
      affHistoryQuota: 0,
    });
    expect(items).toEqual([]);
  });

  it('imports a one-api status 3 user as deleted (and disabled), without reporting the status', () => {
    const { user, items } = ok(
      mapUserRow('one-api', userRow({ username: 'deleted_0f0f', status: 3 }), AT),
    );
    expect(user).toMatchObject({ deleted: true, status: 2 });
    expect(items.filter((i) => i.field === 'status')).toEqual([]);
  });

  it('reads status 3 as unknown on new-api, and new-api deletes by deleted_at', () => {
    const unknown = ok(mapUserRow('new-api', userRow({ status: 3, deleted_at: null }), AT));
    expect(unknown.user).toMatchObject({ deleted: false, status: 2 });
    expect(unknown.items).toContainEqual(
      expect.objectContaining({ field: 'status', action: 'changed' }),
    );
    const gone = ok(
      mapUserRow('new-api', userRow({ deleted_at: '2025-01-01 00:00:00+00:00' }), AT),
    );
    expect(gone.user.deleted).toBe(true);
    expect(gone.user.status).toBe(1);
  });

  it('maps new-api affiliate figures, telegram and linux.do ids', () => {
    const { user, balance } = ok(
      mapUserRow(
        'new-api',
        userRow({
          aff_count: 2,
          aff_quota: 50,
          aff_history: 70,
          telegram_id: 'tg1',
          linux_do_id: 'ld9',
        }),
        AT,
      ),
    );
    expect(balance).toMatchObject({ affCount: 2, affQuota: 50, affHistoryQuota: 70 });
    expect(user.identities).toEqual({ github: '4242', telegram: 'tg1', linuxdo: 'ld9' });
  });

  it('reports a setting that is not valid JSON or not an object, and imports none', () => {
    for (const [setting, reason] of [
      ['{not json', 'not valid JSON'],
      ['[1,2]', 'not a JSON object'],
      ['null', 'not a JSON object'],
    ]) {
      const mapped = ok(mapUserRow('new-api', userRow({ setting }), AT));
      expect(mapped.notifications).toBeNull();
      expect(mapped.items).toEqual([
        { table: 'users', rowId: 2, action: 'dropped', field: 'setting', reason },
      ]);
    }
  });

  it("maps new-api's notification setting to the settings the console saves", () => {
    const setting = JSON.stringify({
      notify_type: 'webhook',
      quota_warning_threshold: 250000,
      webhook_url: ' https://hooks.example.com/t/abc ',
      webhook_secret: 'whsec-Map-7f3a',
      notification_email: 'ops@example.com',
    });
    const mapped = ok(mapUserRow('new-api', userRow({ setting }), AT));
    expect(mapped.notifications).toEqual({
      notifyType: 'webhook',
      quotaWarningThreshold: 250000,
      webhookUrl: 'https://hooks.example.com/t/abc',
      webhookSecret: 'whsec-Map-7f3a',
      notificationEmail: 'ops@example.com',
    });
    expect(mapped.items).toEqual([]);
  });

  it("reads a threshold as new-api did: 0 or none is the option's, a fraction is truncated", () => {
    const of = (setting: object) =>
      ok(mapUserRow('new-api', userRow({ setting: JSON.stringify(setting) }), AT));
    expect(of({ notify_type: 'email', quota_warning_threshold: 0 }).notifications).toMatchObject({
      notifyType: 'email',
      quotaWarningThreshold: null,
    });
    expect(of({ quota_warning_threshold: 1234.9 }).notifications).toMatchObject({
      notifyType: 'email',
      quotaWarningThreshold: 1234,
    });
    // An empty notify type is email in new-api.
    expect(of({ notify_type: '', notification_email: 'a@b.co' }).notifications).toEqual({
      notifyType: 'email',
      quotaWarningThreshold: null,
      webhookUrl: '',
      webhookSecret: '',
      notificationEmail: 'a@b.co',
    });
    // Nothing Tollgate keeps: no settings, nothing reported.
    expect(of({}).notifications).toBeNull();
    expect(of({}).items).toEqual([]);
  });

  it('drops each invalid field (reported, never its secret) and the unknown keys once per row', () => {
    const setting = JSON.stringify({
      notify_type: 'webhook',
      quota_warning_threshold: -5,
      webhook_url: 'ftp://hooks.example.com/x',
      webhook_secret: 'whsec-Dropped-Around-91c2',
      notification_email: 'not-an-address',
      accept_unset_model_ratio_model: true,
      record_ip_log: true,
    });
    const mapped = ok(mapUserRow('new-api', userRow({ setting }), AT));
    // The secret stays (it is valid on its own); the webhook without a URL falls back to email.
    expect(mapped.notifications).toEqual({
      notifyType: 'email',
      quotaWarningThreshold: null,
      webhookUrl: '',
      webhookSecret: 'whsec-Dropped-Around-91c2',
      notificationEmail: '',
    });
    const at = { table: 'users', rowId: 2 };
    expect(mapped.items).toEqual([
      {
        ...at,
        action: 'dropped',
        field: 'setting',
        reason: 'keys Tollgate has no setting for: accept_unset_model_ratio_model, record_ip_log',
      },
      {
        ...at,
        action: 'dropped',
        field: 'setting.webhook_url',
        reason: 'not an http(s) URL of at most 500 characters',
      },
      {
        ...at,
        action: 'dropped',
        field: 'setting.notification_email',
        reason: 'not an email address',
      },
      {
        ...at,
        action: 'dropped',
        field: 'setting.quota_warning_threshold',
        reason: 'not a non-negative number',
      },
      {
        ...at,
        action: 'changed',
        field: 'setting.notify_type',
        reason: 'webhook without a valid webhook URL: email used',
      },
    ]);
    expect(JSON.stringify(mapped.items)).not.toContain('whsec-Dropped');
  });

  it('drops thresholds that are not numbers, URLs too long, and notify types Tollgate lacks', () => {
    const setting = JSON.stringify({
      notify_type: 'bark',
      quota_warning_threshold: '500',
      webhook_url: `https://hooks.example.com/${'a'.repeat(480)}`,
      webhook_secret: 7,
    });
    const mapped = ok(mapUserRow('new-api', userRow({ setting }), AT));
    expect(mapped.notifications).toBeNull();
    expect(mapped.items.map((i) => [i.field, i.reason])).toEqual([
      ['setting.webhook_url', 'not an http(s) URL of at most 500 characters'],
      ['setting.webhook_secret', 'not a string'],
      ['setting.quota_warning_threshold', 'not a non-negative number'],
      ['setting.notify_type', 'bark is not email or webhook: email used'],
    ]);
  });

  it('imports no settings for a deleted user (reported)', () => {
    const setting = JSON.stringify({ notify_type: 'email', notification_email: 'x@y.co' });
    const mapped = ok(
      mapUserRow('new-api', userRow({ setting, deleted_at: '2025-01-01 00:00:00+00:00' }), AT),
    );
    expect(mapped.user.deleted).toBe(true);
    expect(mapped.notifications).toBeNull();
    expect(mapped.items).toContainEqual(
      expect.objectContaining({ field: 'setting', reason: expect.stringMatching(/deleted/) }),
    );
  });

  it('drops a password that is not bcrypt and the lark id, reported', () => {
    const { user, items } = ok(
      mapUserRow('one-api', userRow({ password: 'plain', lark_id: 'lark1' }), AT),
    );
    expect(user.passwordHash).toBe('');
    expect(items.map((i) => i.field)).toEqual(['password', 'lark_id']);
    expect(JSON.stringify(items)).not.toContain('plain');
  });

  it('imports negative quantities as 0 and an unknown role as 1, reported', () => {
    const { user, balance, items } = ok(mapUserRow('one-api', userRow({ quota: -5, role: 7 }), AT));
    expect(balance.quota).toBe(0);
    expect(user.role).toBe(1);
    expect(items.map((i) => i.field).sort()).toEqual(['quota', 'role']);
  });

  it('keeps an address that is not an email unverified, reported', () => {
    const { user, items } = ok(mapUserRow('one-api', userRow({ email: 'not-an-address' }), AT));
    expect(user).toMatchObject({ email: 'not-an-address', emailVerified: false });
    expect(items).toContainEqual(expect.objectContaining({ field: 'email', action: 'changed' }));
  });

  it.each([
    ['id 0', { id: 0 }, /not a positive integer/],
    ['an empty username', { username: '  ' }, /empty username/],
  ])('skips a row with %s', (_name, over, reason) => {
    const mapped = mapUserRow('one-api', userRow(over), AT);
    expect(isSkipped(mapped) && mapped.skipped.reason).toMatch(reason);
  });
});

describe('mapTokenRow', () => {
  it('keeps a 48-character key as the source stored it (sk- stripped), nothing reported', () => {
    const plain = ok(mapTokenRow('one-api', tokenRow({ models: '', subnet: '' }), AT));
    expect(plain.token.key).toBe(KEY);
    expect(plain.items).toEqual([]);
    const prefixed = ok(mapTokenRow('one-api', tokenRow({ key: `sk-${KEY}` }), AT));
    expect(prefixed.token.key).toBe(KEY);
  });

  it('reports a key that is not 48 letters and digits, and skips an empty one', () => {
    const odd = ok(mapTokenRow('one-api', tokenRow({ key: 'short-key' }), AT));
    expect(odd.items).toContainEqual(expect.objectContaining({ field: 'key', action: 'changed' }));
    expect(JSON.stringify(odd.items)).not.toContain('short-key');
    const empty = mapTokenRow('one-api', tokenRow({ key: '' }), AT);
    expect(isSkipped(empty) && empty.skipped.reason).toBe('empty key');
  });

  it('turns one-api models into model limits (empty: every model) and subnet into CIDRs', () => {
    const limited = ok(
      mapTokenRow(
        'one-api',
        tokenRow({ models: 'gpt-4o-mini, gpt-4o,gpt-4o', subnet: '127.0.0.0/8, 10.0.0.1,bogus' }),
        AT,
      ),
    );
    expect(limited.token).toMatchObject({
      modelLimitsEnabled: true,
      modelLimits: ['gpt-4o-mini', 'gpt-4o'],
      allowIps: ['127.0.0.0/8', '10.0.0.1'],
    });
    expect(limited.items).toEqual([
      expect.objectContaining({
        field: 'allow_ips',
        action: 'dropped',
        reason: expect.stringMatching(/^bogus/),
      }),
    ]);
    const every = ok(mapTokenRow('one-api', tokenRow({ models: null }), AT));
    expect(every.token).toMatchObject({ modelLimitsEnabled: false, modelLimits: [] });
  });

  it('maps new-api model limits, allow_ips lines, group and deleted_at', () => {
    const { token } = ok(
      mapTokenRow(
        'new-api',
        tokenRow({
          model_limits_enabled: 1,
          model_limits: 'gpt-4o',
          allow_ips: '1.2.3.4\r\n5.6.7.0/24\n',
          group: 'vip',
          deleted_at: '2025-01-01 00:00:00+00:00',
        }),
        AT,
      ),
    );
    expect(token).toMatchObject({
      modelLimitsEnabled: true,
      modelLimits: ['gpt-4o'],
      allowIps: ['1.2.3.4', '5.6.7.0/24'],
      group: 'vip',
      deleted: true,
      source: { project: 'new-api', table: 'tokens', rowId: 5, importedAt: AT },
    });
  });

  it('keeps expired and exhausted tokens with their status and expiry', () => {
    const expired = ok(
      mapTokenRow('one-api', tokenRow({ status: 3, expired_time: 1_700_000_100 }), AT),
    );
    expect(expired.token).toMatchObject({ status: 3, expiredTime: 1_700_000_100 });
    expect(expired.items).toEqual([]);
    const exhausted = ok(
      mapTokenRow('one-api', tokenRow({ status: 4, remain_quota: 0, used_quota: 900 }), AT),
    );
    expect(exhausted.token).toMatchObject({ status: 4, remainQuota: 0, usedQuota: 900 });
  });

  it('imports expiry 0 as never and an unknown status as disabled, reported', () => {
    const { token, items } = ok(
      mapTokenRow('one-api', tokenRow({ status: 9, expired_time: 0 }), AT),
    );
    expect(token).toMatchObject({ status: 2, expiredTime: -1 });
    expect(items.map((i) => i.field).sort()).toEqual(['expired_time', 'status']);
  });

  it('names a token without a name after its id, and reads unlimited_quota as a boolean', () => {
    const { token } = ok(mapTokenRow('one-api', tokenRow({ name: '', unlimited_quota: '1' }), AT));
    expect(token).toMatchObject({ name: 'token-5', unlimitedQuota: true });
  });
});
