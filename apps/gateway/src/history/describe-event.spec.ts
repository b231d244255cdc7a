import { auditEntityOf } from './audit-entity';
import { describeEvent, describeStream } from './describe-event';

describe('history describers (given events → what changed)', () => {
  it('a user stream: registration, then role, group, status and profile changes, before → after', () => {
    const described = describeStream([
      {
        type: 'UserRegistered',
        data: {
          userId: 7,
          username: 'ann',
          displayName: 'Ann',
          passwordHash: '$argon2id$secret',
          role: 1,
          group: 'default',
          email: '',
          inviterId: 0,
          affCode: 'abcd',
          source: 'admin',
        },
      },
      { type: 'UserRoleChanged', data: { userId: 7, from: 1, to: 10 } },
      { type: 'UserGroupChanged', data: { userId: 7, from: 'default', to: 'vip' } },
      { type: 'UserStatusChanged', data: { userId: 7, from: 1, to: 2 } },
      { type: 'UserProfileUpdated', data: { userId: 7, displayName: 'Annie', remark: 'note' } },
      { type: 'UserProfileUpdated', data: { userId: 7, displayName: 'Annie', remark: 'other' } },
    ]);
    expect(described[0]!.changes).toEqual(
      expect.arrayContaining([
        { field: 'username', before: null, after: 'ann' },
        { field: 'role', before: null, after: 1 },
        { field: 'password', before: null, after: 'changed', secret: true },
      ]),
    );
    expect(described[0]!.reason).toBe('admin');
    expect(JSON.stringify(described)).not.toContain('argon2id');
    expect(described[1]!.changes).toEqual([{ field: 'role', before: 1, after: 10 }]);
    expect(described[2]!.changes).toEqual([{ field: 'group', before: 'default', after: 'vip' }]);
    expect(described[3]!.changes).toEqual([{ field: 'status', before: 1, after: 2 }]);
    expect(described[4]!.changes).toEqual([
      { field: 'display_name', before: 'Ann', after: 'Annie' },
      { field: 'remark', before: null, after: 'note' },
    ]);
    // an unchanged field is left out
    expect(described[5]!.changes).toEqual([{ field: 'remark', before: 'note', after: 'other' }]);
  });

  it('billing events are deltas: a grant by amount, an admin edit with the balance it saw', () => {
    expect(
      describeEvent('QuotaGranted', { userId: 7, amount: 500, reason: 'topup' }, {}),
    ).toMatchObject({
      changes: [{ field: 'quota', before: null, after: null, delta: 500 }],
      reason: 'topup',
    });
    expect(
      describeEvent('QuotaAdjusted', { userId: 7, from: 100, to: 40, delta: -60, note: '' }, {})
        .changes,
    ).toEqual([{ field: 'quota', before: 100, after: 40, delta: -60 }]);
    expect(describeEvent('AffQuotaTransferred', { userId: 7, amount: 9 }, {}).changes).toEqual([
      { field: 'aff_quota', before: null, after: null, delta: -9 },
      { field: 'quota', before: null, after: null, delta: 9 },
    ]);
  });

  it('tokens and channels: settings diffed against the folded stream, keys "changed" only', () => {
    const settings = {
      tokenId: 3,
      userId: 7,
      name: 'ci',
      expiredTime: -1,
      remainQuota: 1000,
      unlimitedQuota: false,
      modelLimitsEnabled: false,
      modelLimits: [],
      allowIps: [],
      group: '',
      rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
    };
    const [created, updated, status] = describeStream([
      {
        type: 'TokenCreated',
        data: { ...settings, sealedKey: { cipher: 'c1pher', hash: 'h4sh' }, keyHash: 'h4sh' },
      },
      { type: 'TokenUpdated', data: { ...settings, name: 'ci-2', remainQuota: 50 } },
      {
        type: 'TokenStatusChanged',
        data: { tokenId: 3, userId: 7, from: 1, to: 4, reason: 'exhausted' },
      },
    ]);
    expect(created!.changes).toContainEqual({
      field: 'key',
      before: null,
      after: 'changed',
      secret: true,
    });
    expect(JSON.stringify(created)).not.toMatch(/c1pher|h4sh/);
    expect(updated!.changes).toEqual([
      { field: 'name', before: 'ci', after: 'ci-2' },
      { field: 'remain_quota', before: 1000, after: 50 },
    ]);
    expect(status).toMatchObject({
      changes: [{ field: 'status', before: 1, after: 4 }],
      reason: 'exhausted',
    });

    const channel = describeStream([
      {
        type: 'ChannelCreated',
        data: {
          channelId: 2,
          config: { name: 'main', baseUrl: 'http://a', priority: 0 },
          key: { cipher: 'x', hash: 'y' },
          status: 1,
          createdTime: 1,
        },
      },
      {
        type: 'ChannelUpdated',
        data: { channelId: 2, changes: { baseUrl: 'http://b' }, key: { cipher: 'z', hash: 'w' } },
      },
      {
        type: 'ChannelStatusChanged',
        data: { channelId: 2, from: 1, to: 3, reason: 'quota exceeded', time: 5 },
      },
    ]);
    expect(channel[1]!.changes).toEqual([
      { field: 'base_url', before: 'http://a', after: 'http://b' },
      { field: 'key', before: null, after: 'changed', secret: true },
    ]);
    expect(channel[2]).toMatchObject({ reason: 'quota exceeded' });
  });

  it('imported channels and codes: their first line reads "imported from", keys "changed" only', () => {
    const source = {
      project: 'one-api',
      table: 'channels',
      rowId: 2,
      importedAt: '2026-01-15T08:00:00Z',
    };
    const [channel] = describeStream([
      {
        type: 'ChannelImported',
        data: {
          channelId: 2,
          config: { type: 43, name: 'deepseek', baseUrl: '' },
          key: { cipher: 'x', hash: 'y' },
          status: 2,
          usedQuota: 50,
          balance: 0,
          source,
        },
      },
    ]);
    expect(channel!.reason).toBe('imported from one-api at 2026-01-15T08:00:00Z');
    expect(channel!.changes).toEqual(
      expect.arrayContaining([
        { field: 'type', before: null, after: 43 },
        { field: 'status', before: null, after: 2 },
        { field: 'used_quota', before: null, after: 50 },
        { field: 'key', before: null, after: 'changed', secret: true },
      ]),
    );
    const [code] = describeStream([
      {
        type: 'RedemptionImported',
        data: {
          redemptionId: 4,
          name: 'gift',
          quota: 9,
          status: 3,
          redeemedTime: 7,
          usedUserId: 3,
          deleted: false,
          sealedKey: { cipher: 'c', hash: 'h' },
          keyHash: 'k',
          source: { ...source, project: 'new-api', table: 'redemptions' },
        },
      },
    ]);
    expect(code!.reason).toMatch(/^imported from new-api/);
    expect(code!.changes).toEqual([
      { field: 'name', before: null, after: 'gift' },
      { field: 'quota', before: null, after: 9 },
      { field: 'status', before: null, after: 3 },
      { field: 'redeemed_time', before: null, after: 7 },
      { field: 'used_user_id', before: null, after: 3 },
      { field: 'key', before: null, after: 'changed', secret: true },
    ]);
    expect(JSON.stringify(code)).not.toContain('"k"');
  });

  it('options: a value with its previous one; a secret option "changed" only', () => {
    expect(
      describeEvent('OptionChanged', { key: 'QuotaForNewUser', value: '10', previous: '0' }, {})
        .changes,
    ).toEqual([{ field: 'QuotaForNewUser', before: '0', after: '10' }]);
    const secret = describeEvent(
      'SecretOptionChanged',
      { key: 'SMTPToken', sealed: { cipher: 'AAAA', hash: 'BBBB' } },
      {},
    );
    expect(secret.changes).toEqual([
      { field: 'SMTPToken', before: null, after: 'changed', secret: true },
    ]);
    expect(JSON.stringify(secret)).not.toMatch(/AAAA|BBBB/);
  });

  it('an unknown event type (or a new provider) is listed without crashing', () => {
    expect(describeEvent('SetupWizardFinished', { anything: 1 }, { a: 1 })).toEqual({
      changes: [],
      reason: '',
      next: { a: 1 },
    });
    expect(describeEvent('Weird', null, {}).changes).toEqual([]);
    expect(
      describeEvent(
        'UserExternalIdentityBound',
        { userId: 1, provider: 'linuxdo', externalId: '42' },
        {},
      ).changes,
    ).toEqual([{ field: 'linuxdo_id', before: null, after: '42' }]);
  });

  it('maps streams to entities; guards, sequences, receipts and logouts are not history', () => {
    expect(auditEntityOf('billing-5', 'QuotaGranted')).toEqual({ kind: 'user', id: 5 });
    expect(auditEntityOf('user-5', 'UserRoleChanged')).toEqual({ kind: 'user', id: 5 });
    expect(auditEntityOf('options', 'OptionChanged')).toEqual({ kind: 'option', id: 0 });
    expect(auditEntityOf('user-5', 'UserSignedOut')).toBeNull();
    expect(auditEntityOf('username-ann', 'UniqueValueClaimed')).toBeNull();
    expect(auditEntityOf('usage-p1-2025010100', 'RequestRelayed')).toBeNull();
    expect(auditEntityOf('seq-user', 'IdAllocated')).toBeNull();
  });

  it('notification settings: the webhook secret "changed" only when its sealed hash changes', () => {
    const settings = (cipher: string, hash: string, threshold = 5) => ({
      type: 'UserNotificationSettingsChanged',
      data: {
        userId: 7,
        notifyType: 'webhook',
        quotaWarningThreshold: threshold,
        webhookUrl: 'https://hooks.example.com/t',
        sealedWebhookSecret: { cipher, hash },
        notificationEmail: '',
        acceptAdminAlerts: false,
      },
    });
    const secretChange = { field: 'webhook_secret', before: null, after: 'changed', secret: true };
    const [first, resealed, replaced] = describeStream([
      settings('iv1.body', 'h1'),
      settings('iv2.body', 'h1', 6),
      settings('iv3.body', 'h2', 6),
    ]);
    expect(first!.changes).toContainEqual(secretChange);
    expect(resealed!.changes).toEqual([{ field: 'quota_warning_threshold', before: 5, after: 6 }]);
    expect(replaced!.changes).toEqual([secretChange]);
    expect(JSON.stringify([first, resealed, replaced])).not.toMatch(/iv\d|h1|h2/);
    // The URL may carry a token: scheme and host only.
    expect(first!.changes).toContainEqual({
      field: 'webhook_url',
      before: null,
      after: 'https://hooks.example.com/…',
    });
  });

  it('imported tasks and top-up orders: their first line reads "imported from new-api"', () => {
    const source = {
      project: 'new-api',
      table: 'tasks',
      rowId: 3,
      importedAt: '2026-01-15T08:00:00Z',
    };
    const [task, failed] = describeStream([
      {
        type: 'TaskImported',
        data: {
          platform: 'suno',
          upstreamTaskId: 'u3',
          userId: 2,
          quota: 40,
          status: 'IN_PROGRESS',
          progress: '50%',
          failReason: '',
          source,
        },
      },
      {
        type: 'TaskFailed',
        data: {
          reason: 'content policy',
          snapshot: { status: 'FAILURE', progress: '100%', failReason: 'content policy' },
        },
      },
    ]);
    expect(task!.reason).toBe('imported from new-api at 2026-01-15T08:00:00Z');
    expect(task!.changes).toEqual(
      expect.arrayContaining([{ field: 'status', before: null, after: 'IN_PROGRESS' }]),
    );
    expect(failed!.reason).toBe('content policy');
    expect(failed!.changes).toEqual(
      expect.arrayContaining([{ field: 'status', before: 'IN_PROGRESS', after: 'FAILURE' }]),
    );
    const [order] = describeStream([
      {
        type: 'TopUpOrderImported',
        data: {
          userId: 2,
          amount: 10,
          money: 7.3,
          quota: 5_000_000,
          status: 'pending',
          source: { ...source, table: 'top_ups' },
        },
      },
    ]);
    expect(order!.reason).toMatch(/^imported from new-api at /);
    expect(order!.changes).toEqual(
      expect.arrayContaining([{ field: 'quota', before: null, after: 5_000_000 }]),
    );
  });

  it('leaves out fields that go from empty to empty on creation', () => {
    const { changes } = describeEvent(
      'ChannelCreated',
      {
        channelId: 3,
        config: { name: 'c', baseUrl: '', other: '', models: ['gpt-4o'], groups: [], tag: '' },
        key: { hash: 'h' },
        status: 1,
      },
      {},
    );
    expect(changes.map((change) => change.field)).toEqual(['name', 'models', 'status', 'key']);
  });
});
