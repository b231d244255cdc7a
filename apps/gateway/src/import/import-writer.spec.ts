import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@tollgate/event-store';
import {
  SYSTEM_ACTOR,
  userDecider,
  type ChangeNotificationSettings,
  type UserNotificationSettingsChanged,
} from '@tollgate/domain';
import { SecretBox } from '../infrastructure/secret-box';
import { RecentIdsEventStore } from '../infrastructure/testing/recent-ids-event-store';
import { isSkipped, mapUserRow, type MappedUser } from './import-mapping';
import { ImportWriter } from './import-writer';

const AT = '2026-01-15T08:00:00.000Z';
const BCRYPT = `$2a$04$${'A'.repeat(53)}`;
const SECRET = 'whsec-Writer-Secret-5e81';
const FINGERPRINT = 'f'.repeat(32);

const setting = JSON.stringify({
  notify_type: 'webhook',
  quota_warning_threshold: 700000,
  webhook_url: 'https://hooks.example.com/w',
  webhook_secret: SECRET,
  notification_email: 'ops@example.com',
  record_ip_log: true,
});

function mapped(over: Record<string, unknown> = {}): MappedUser {
  const result = mapUserRow(
    'new-api',
    { id: 2, username: 'alice', password: BCRYPT, role: 1, status: 1, quota: 10, setting, ...over },
    AT,
  );
  if (isSkipped(result)) throw new Error(result.skipped.reason);
  return result;
}

describe('ImportWriter: new-api notification settings', () => {
  let store: SqliteEventStore;
  const box = new SecretBox('server-secret');
  const writer = () => new ImportWriter(store, box, 'new-api', FINGERPRINT);
  const settingsEvents = async (stream = 'user-2') =>
    (await store.readStream(stream)).filter((e) => e.type === 'UserNotificationSettingsChanged');

  beforeEach(() => {
    store = SqliteEventStore.open(':memory:');
  });
  afterEach(() => store.close());

  it('appends them after UserImported, the secret sealed, with the import metadata', async () => {
    expect(await writer().user(mapped())).toBe('imported');
    const events = await store.readStream('user-2');
    expect(events.map((e) => e.type)).toEqual(['UserImported', 'UserNotificationSettingsChanged']);
    const [event] = await settingsEvents();
    const data = event!.data as UserNotificationSettingsChanged['data'];
    expect(data).toMatchObject({
      userId: 2,
      notifyType: 'webhook',
      quotaWarningThreshold: 700000,
      webhookUrl: 'https://hooks.example.com/w',
      notificationEmail: 'ops@example.com',
      acceptAdminAlerts: false,
    });
    expect(data.sealedWebhookSecret).not.toBeNull();
    expect(box.open(data.sealedWebhookSecret!)).toBe(SECRET);
    expect(JSON.stringify([event!.data, event!.metadata])).not.toContain(SECRET);
    expect(event!.metadata).toMatchObject({
      actor: SYSTEM_ACTOR,
      import: { project: 'new-api', table: 'users', rowId: 2, fingerprint: FINGERPRINT },
    });
    // Its id is not the UserImported one: both are kept.
    expect(event!.id).not.toBe(events[0]!.id);
  });

  it('a repeated run appends nothing; a run killed before the settings completes them once', async () => {
    await writer().user(mapped());
    expect(await writer().user(mapped())).toBe('already');
    expect(await settingsEvents()).toHaveLength(1);

    // The first run died after UserImported and the balance (no settings yet).
    await writer().user(mapped({ id: 3, username: 'bob', setting: '' }));
    expect(await settingsEvents('user-3')).toHaveLength(0);
    expect(await writer().user(mapped({ id: 3, username: 'bob' }))).toBe('already');
    expect(await writer().user(mapped({ id: 3, username: 'bob' }))).toBe('already');
    const completed = await settingsEvents('user-3');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data).toMatchObject({ userId: 3, notifyType: 'webhook' });
  });

  it("does not overwrite what the user changed since: the import's event is appended once", async () => {
    await writer().user(mapped());
    const events = await store.readStream('user-2');
    const state = events.reduce(
      (s, e) => userDecider.evolve(s, { type: e.type, data: e.data } as never),
      userDecider.initialState,
    );
    const command: ChangeNotificationSettings = {
      type: 'ChangeNotificationSettings',
      notifyType: 'email',
      quotaWarningThreshold: 5,
      webhookUrl: '',
      sealedWebhookSecret: null,
      keepWebhookSecret: false,
      notificationEmail: '',
      acceptAdminAlerts: false,
    };
    const [changed] = userDecider.decide(command, state, { now: new Date() });
    await store.append(
      'user-2',
      [
        {
          id: randomUUID(),
          type: changed!.type,
          data: changed!.data,
          metadata: { actor: { kind: 'user', id: 2, role: 1 } },
        },
      ],
      events[events.length - 1]!.revision,
    );

    expect(await writer().user(mapped())).toBe('already');
    const after = await settingsEvents();
    expect(after).toHaveLength(2);
    expect(after[1]!.data).toMatchObject({ notifyType: 'email', quotaWarningThreshold: 5 });
  });

  it('on an engine that forgets old event ids, a re-run still does not repeat the settings the user changed since', async () => {
    const esdb = new RecentIdsEventStore();
    const run = () => new ImportWriter(esdb, box, 'new-api', FINGERPRINT);
    await run().user(mapped());
    const events = await esdb.readStream('user-2');
    await esdb.append(
      'user-2',
      [
        {
          id: randomUUID(),
          type: 'UserNotificationSettingsChanged',
          data: { ...events[1]!.data!, notifyType: 'email' },
          metadata: { actor: { kind: 'user', id: 2, role: 1 } },
        },
      ],
      events[events.length - 1]!.revision,
    );

    expect(await run().user(mapped())).toBe('already');

    const changes = (await esdb.readStream('user-2')).filter(
      (e) => e.type === 'UserNotificationSettingsChanged',
    );
    expect(changes.map((e) => (e.data as { notifyType: string }).notifyType)).toEqual([
      'webhook',
      'email',
    ]);
    // The refused repeat carried the key its first write recorded.
    const settingsKeys = esdb.calls
      .filter((c) => c.streamId === 'user-2')
      .map((c) => c.options?.idempotencyKey);
    expect(settingsKeys[settingsKeys.length - 1]).toBe(settingsKeys[1]);
  });

  it('writes none for a deleted user, nor for a user without settings', async () => {
    await writer().user(mapped({ deleted_at: '2025-01-01 00:00:00+00:00' }));
    await writer().user(mapped({ id: 3, username: 'bob', setting: '{"record_ip_log":true}' }));
    expect((await store.readStream('user-2')).map((e) => e.type)).toEqual(['UserImported']);
    expect((await store.readStream('user-3')).map((e) => e.type)).toEqual(['UserImported']);
  });
});
