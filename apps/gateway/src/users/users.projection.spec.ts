import type { EventStore } from '@tollgate/event-store';
import {
  ProjectionHost,
  applyEvents,
  rebuildProjections,
  type ReadStore,
} from '@tollgate/read-store';
import type { BillingEvent, TaskRefunded, TaskSubmitted, UserEvent } from '@tollgate/domain';
import { ALL_PROJECTIONS } from '../projection-registry';
import { USERS, type UserDocument } from './user.document';
import { OPTIONS } from '../options/options.projection';
import { UNIQUE_CLAIMS, type UniqueClaimDocument } from './unique-claims.projection';
import { usersProjection } from './users.projection';
import { SNAPSHOT_EVENT } from '../infrastructure/stream-commands';
import { closeProjectionHost, openProjectionHost } from '@tollgate/testing/projection-host';
import { appendEvents } from '@tollgate/testing/append-events';
import { usageReceipt } from '@tollgate/testing/usage-receipt';

const meta = {
  schemaVersion: 1,
  actor: { kind: 'system', id: null, role: null },
  occurredAt: '2026-01-15T08:00:00.000Z',
};
const registered = (userId: number, username: string): UserEvent => ({
  type: 'UserRegistered',
  data: {
    userId,
    username,
    displayName: username,
    passwordHash: '$argon2id$x',
    role: 1,
    group: 'default',
    email: '',
    inviterId: 0,
    affCode: `code${userId}`,
    source: 'register',
  },
});

/** A Midjourney task's submission and its charge, appended together on `task-<id>`. */
const taskSubmission = (taskId: string, userId: number, quota: number) => {
  const task: TaskSubmitted['data'] = {
    taskId,
    platform: 'midjourney',
    upstreamTaskId: `mj-${taskId}`,
    userId,
    tokenId: 0,
    channelId: 4,
    action: 'IMAGINE',
    model: 'mj_imagine',
    code: 1,
    prompt: 'a cat',
    description: '',
    submitTime: 0,
    status: 'SUBMITTED',
    progress: '0%',
    failReason: '',
    quota,
    originTaskId: '',
    imageUrl: '',
  };
  const charge = usageReceipt({
    requestId: taskId,
    userId,
    tokenId: 0,
    channelId: 4,
    model: 'mj_imagine',
    promptTokens: 0,
    completionTokens: 0,
    quota,
    modelPrice: 0.1,
    task: { platform: 'midjourney', action: 'IMAGINE', upstreamTaskId: `mj-${taskId}` },
  });
  return [
    { type: 'TaskSubmitted', data: task },
    { type: 'RequestRelayed', data: charge },
  ];
};
const taskRefund = (taskId: string, userId: number, quota: number) => ({
  type: 'TaskRefunded',
  data: {
    taskId,
    platform: 'midjourney',
    upstreamTaskId: `mj-${taskId}`,
    userId,
    tokenId: 0,
    channelId: 4,
    model: 'mj_imagine',
    quota,
    refundedTime: 0,
  } satisfies TaskRefunded['data'],
});

async function append(
  store: EventStore,
  stream: string,
  events: Array<UserEvent | BillingEvent | { type: string; data: unknown }>,
) {
  return appendEvents(store, stream, events, meta);
}

describe('users and options projections', () => {
  let events: EventStore;
  let read: ReadStore;
  let host: ProjectionHost;

  beforeEach(async () => {
    ({ events, read, host } = await openProjectionHost(ALL_PROJECTIONS));
  });
  afterEach(() => closeProjectionHost({ events, read, host }));

  it('given a registration, grants and changes, the user document shows them', async () => {
    await append(events, 'user-7', [
      registered(7, 'Alice'),
      { type: 'UserRoleChanged', data: { userId: 7, from: 1, to: 10 } },
      { type: 'UserProfileUpdated', data: { userId: 7, displayName: 'Alice A.' } },
    ]);
    await append(events, 'billing-7', [
      { type: 'QuotaGranted', data: { userId: 7, amount: 1000, reason: 'new_user' } },
      { type: 'InviterRewarded', data: { userId: 7, inviteeId: 8, amount: 600 } },
      { type: 'AffQuotaTransferred', data: { userId: 7, amount: 500 } },
      { type: 'QuotaAdjusted', data: { userId: 7, from: 1500, to: 2000, delta: 500, note: '' } },
    ]);
    const position = (
      await append(events, 'user-7', [
        { type: 'UserDeregistered', data: { userId: 7, by: 'admin' } },
      ])
    ).position;
    expect(await host.waitFor(position, 2000)).toBe(true);
    const doc = await read.collection<UserDocument>(USERS).get('7');
    expect(doc).toMatchObject({
      id: 7,
      username: 'Alice',
      username_lower: 'alice',
      display_name: 'Alice A.',
      role: 10,
      quota: 2000,
      aff_count: 1,
      aff_quota: 100,
      aff_history_quota: 600,
      created_at: Date.parse(meta.occurredAt) / 1000,
      DeletedAt: meta.occurredAt,
    });
  });

  it("a new user's document has new-api's oidc_id, linux_do_id and setting, empty; an OIDC bind fills oidc_id", async () => {
    const position = (
      await append(events, 'user-9', [
        registered(9, 'nina'),
        {
          type: 'UserExternalIdentityBound',
          data: { userId: 9, provider: 'oidc', externalId: 'sub-9' },
        },
      ])
    ).position;
    expect(await host.waitFor(position, 2000)).toBe(true);
    expect(await read.collection<UserDocument>(USERS).get('9')).toMatchObject({
      oidc_id: 'sub-9',
      linux_do_id: '',
      setting: '',
    });
    expect(usersProjection.version).toBeGreaterThanOrEqual(3);
  });

  it('a bound email is verified on the user document; its guard settles, the replaced one waits for release', async () => {
    await append(events, 'email-old@example.com', [
      { type: 'UniqueValueClaimed', data: { value: 'old@example.com', ownerId: 5 } },
    ]);
    await append(events, 'user-5', [
      {
        ...registered(5, 'erin'),
        data: { ...registered(5, 'erin').data, email: 'old@example.com', emailVerified: true },
      },
    ]);
    await append(events, 'email-new@example.com', [
      { type: 'UniqueValueClaimed', data: { value: 'new@example.com', ownerId: 5 } },
    ]);
    const { position } = await append(events, 'user-5', [
      {
        type: 'UserEmailBound',
        data: { userId: 5, email: 'new@example.com', previous: 'old@example.com' },
      },
    ]);
    expect(await host.waitFor(position, 2000)).toBe(true);
    expect(await read.collection<UserDocument>(USERS).get('5')).toMatchObject({
      email: 'new@example.com',
      email_verified: true,
    });
    const claims = read.collection<UniqueClaimDocument>(UNIQUE_CLAIMS);
    expect(await claims.get('email-new@example.com')).toMatchObject({
      kind: 'email',
      settled: true,
    });
    expect(await claims.get('email-old@example.com')).toMatchObject({ settled: false });
  });

  it('stream snapshots in the log are skipped by every projection', async () => {
    expect(ALL_PROJECTIONS.filter((p) => p.eventTypes.includes(SNAPSHOT_EVENT))).toEqual([]);
    await append(events, 'user-3', [registered(3, 'carol')]);
    const snapshot = { stream: 'user-3', revision: 0, version: 1, state: { role: 100 } };
    const { position } = await append(events, 'snapshot-user-3', [
      { type: SNAPSHOT_EVENT, data: snapshot },
    ]);
    expect(await host.waitFor(position, 2000)).toBe(true);
    expect(await read.collection<UserDocument>(USERS).get('3')).toMatchObject({ role: 1 });
  });

  it('sessions end and tokens are voided by the events that must end them; logouts are remembered', async () => {
    const at = Date.parse(meta.occurredAt);
    await append(events, 'user-9', [
      { ...registered(9, 'dave'), data: { ...registered(9, 'dave').data, emailVerified: true } },
      { type: 'UserAccessTokenIssued', data: { userId: 9, tokenHash: 'tok' } },
      { type: 'UserSignedOut', data: { userId: 9, sessionId: 's1', issuedAt: at - 1000 } },
      { type: 'UserPasswordChanged', data: { userId: 9, passwordHash: 'h2', reason: 'self' } },
    ]);
    const selfChange = await append(events, 'user-9', [
      { type: 'UserSignedOut', data: { userId: 9, sessionId: 's2', issuedAt: at } },
    ]);
    expect(await host.waitFor(selfChange.position, 2000)).toBe(true);
    const doc = await read.collection<UserDocument>(USERS).get('9');
    expect(doc).toMatchObject({
      email_verified: true,
      access_token_hash: 'tok', // the user's own password change keeps their token
      sessions_valid_after: at,
      revoked_sessions: [
        { id: 's1', issued_at: at - 1000 },
        { id: 's2', issued_at: at },
      ],
    });
    const reset = await append(events, 'user-9', [
      { type: 'UserPasswordChanged', data: { userId: 9, passwordHash: 'h3', reason: 'admin' } },
    ]);
    expect(await host.waitFor(reset.position, 2000)).toBe(true);
    expect((await read.collection<UserDocument>(USERS).get('9'))?.access_token_hash).toBe('');
  });

  it('applying the same events twice changes nothing (idempotent without transactions)', async () => {
    await append(events, 'user-3', [registered(3, 'carol')]);
    const grant = await append(events, 'billing-3', [
      { type: 'QuotaGranted', data: { userId: 3, amount: 100, reason: 'redemption' } },
      { type: 'InviterRewarded', data: { userId: 3, inviteeId: 4, amount: 7 } },
    ]);
    expect(await host.waitFor(grant.position, 2000)).toBe(true);
    const once = await read.collection<UserDocument>(USERS).get('3');
    const replay = await events.readStream('billing-3');
    await read.transaction(async (session) => {
      for (const event of replay) await usersProjection.apply(event, session);
    });
    expect(await read.collection<UserDocument>(USERS).get('3')).toEqual(once);
    expect(once).toMatchObject({ quota: 100, aff_quota: 7, aff_count: 1 });
  });

  it('replaying usage receipts changes nothing, merged per batch or one by one', async () => {
    await append(events, 'user-5', [registered(5, 'erin')]);
    await append(events, 'billing-5', [
      { type: 'QuotaGranted', data: { userId: 5, amount: 100, reason: 'redemption' } },
    ]);
    const used = await append(events, 'usage-p-1', [
      { type: 'RequestRelayed', data: usageReceipt({ userId: 5, quota: 20 }) },
      { type: 'RequestRelayed', data: usageReceipt({ userId: 5, quota: 5 }) },
    ]);
    expect(await host.waitFor(used.position, 2000)).toBe(true);
    const once = await read.collection<UserDocument>(USERS).get('5');
    expect(once).toMatchObject({ quota: 75, used_quota: 25, request_count: 2 });
    const replay = [
      ...(await events.readStream('billing-5')),
      ...(await events.readStream('usage-p-1')),
    ];
    // The runner's own path: merged (atomic store) and one by one (store without transactions).
    for (const atomicTransactions of [true, false])
      await read.transaction((session) =>
        applyEvents(usersProjection, replay, session, { atomicTransactions }),
      );
    expect(await read.collection<UserDocument>(USERS).get('5')).toEqual(once);
  });

  it('an offline rebuild produces exactly the documents of incremental application', async () => {
    await append(events, 'user-1', [
      registered(1, 'root'),
      { type: 'UserAccessTokenIssued', data: { userId: 1, tokenHash: 'abc' } },
    ]);
    await append(events, 'user-2', [
      registered(2, 'bob'),
      { type: 'UserStatusChanged', data: { userId: 2, from: 1, to: 2 } },
    ]);
    await append(events, 'billing-2', [
      { type: 'QuotaGranted', data: { userId: 2, amount: 42, reason: 'new_user' } },
    ]);
    const last = await append(events, 'options', [
      { type: 'OptionChanged', data: { key: 'SystemName', value: 'Gate', previous: 'Tollgate' } },
      {
        type: 'SecretOptionChanged',
        data: { key: 'SMTPToken', sealed: { cipher: 'c', hash: 'h' } },
      },
    ]);
    expect(await host.waitFor(last.position, 2000)).toBe(true);
    const incremental = {
      users: await read.collection(USERS).find({}, { sort: { id: 1 } }),
      options: await read.collection(OPTIONS).find({}, { sort: { key: 1 } }),
    };
    await host.stop();
    const result = await rebuildProjections(events, read, ALL_PROJECTIONS);
    expect(result.events).toBe(7);
    expect({
      users: await read.collection(USERS).find({}, { sort: { id: 1 } }),
      options: await read.collection(OPTIONS).find({}, { sort: { key: 1 } }),
    }).toEqual(incremental);
    expect(incremental.users).toHaveLength(2);
    expect(incremental.options).toHaveLength(2);
  });

  it('a task refund gives back what its charge took: quota, used_quota, request_count; replays change nothing', async () => {
    await append(events, 'user-6', [registered(6, 'frank')]);
    await append(events, 'billing-6', [
      { type: 'QuotaGranted', data: { userId: 6, amount: 1000, reason: 'redemption' } },
    ]);
    await append(events, 'usage-p-1', [
      { type: 'RequestRelayed', data: usageReceipt({ userId: 6, quota: 10 }) },
    ]);
    const charged = await append(events, 'task-a', taskSubmission('a', 6, 300));
    expect(await host.waitFor(charged.position, 2000)).toBe(true);
    expect(await read.collection<UserDocument>(USERS).get('6')).toMatchObject({
      quota: 690,
      used_quota: 310,
      request_count: 2,
    });
    const refunded = await append(events, 'task-a', [
      { type: 'TaskFailed', data: { taskId: 'a', reason: 'x', cause: 'upstream', snapshot: {} } },
      taskRefund('a', 6, 300),
    ]);
    expect(await host.waitFor(refunded.position, 2000)).toBe(true);
    const once = await read.collection<UserDocument>(USERS).get('6');
    expect(once).toMatchObject({ quota: 990, used_quota: 10, request_count: 1 });
    expect(usersProjection.eventTypes).toContain('TaskRefunded');
    expect(usersProjection.version).toBeGreaterThanOrEqual(4);
    const replay = [
      ...(await events.readStream('billing-6')),
      ...(await events.readStream('usage-p-1')),
      ...(await events.readStream('task-a')),
    ].filter((event) => usersProjection.eventTypes.includes(event.type));
    for (const atomicTransactions of [true, false])
      await read.transaction((session) =>
        applyEvents(usersProjection, replay, session, { atomicTransactions }),
      );
    expect(await read.collection<UserDocument>(USERS).get('6')).toEqual(once);
  });
});
