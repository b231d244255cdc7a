/**
 * The log the storage and rebuild measures share: users, tokens and channels, then usage receipts
 * as the batching appender writes them (a few hundred per append, two hours of traffic).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { EventStore } from '@tollgate/event-store';
import { EMPTY_CHANNEL_CONFIG } from '@tollgate/domain';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { appendEvents } from '@tollgate/testing/append-events';

const USERS = 50;
const TOKENS = 100;
const CHANNELS = 5;
const MODELS = ['gpt-4o-mini', 'gpt-4o', 'gpt-3.5-turbo'];

/** A request id as the gateway makes one (32 hex digits), the same for the same seed. */
const hex32 = (seed: string) => createHash('md5').update(seed).digest('hex');

const meta = (occurredAt: string) => ({
  schemaVersion: 1,
  actor: { kind: 'system', id: null, role: null },
  occurredAt,
});

/** Seeds users, tokens and channels, then `receipts` receipts over two hours; the events in all. */
export async function seedReceiptLog(store: EventStore, receipts: number): Promise<number> {
  const start = Date.parse('2026-01-15T08:00:00.000Z');
  const setup = meta(new Date(start).toISOString());
  for (let u = 1; u <= USERS; u++) {
    await appendEvents(
      store,
      `user-${u}`,
      [
        {
          type: 'UserRegistered',
          data: {
            userId: u,
            username: `user${u}`,
            displayName: `user${u}`,
            passwordHash: '$argon2id$x',
            role: 1,
            group: 'default',
            email: '',
            inviterId: 0,
            affCode: `code${u}`,
            source: 'register',
          },
        },
      ],
      setup,
    );
    await appendEvents(
      store,
      `billing-${u}`,
      [{ type: 'QuotaGranted', data: { userId: u, amount: 10_000_000, reason: 'new_user' } }],
      setup,
    );
  }
  for (let t = 1; t <= TOKENS; t++) {
    await appendEvents(
      store,
      `token-${t}`,
      [
        {
          type: 'TokenCreated',
          data: {
            tokenId: t,
            userId: ((t - 1) % USERS) + 1,
            sealedKey: { cipher: 'sealed', hash: `h${t}` },
            keyHash: `k${t}`,
            createdTime: start / 1000,
            name: `t${t}`,
            expiredTime: -1,
            remainQuota: 1_000_000,
            unlimitedQuota: false,
            modelLimitsEnabled: false,
            modelLimits: [],
            allowIps: [],
            group: '',
            rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
          },
        },
      ],
      setup,
    );
  }
  for (let c = 1; c <= CHANNELS; c++) {
    await appendEvents(
      store,
      `channel-${c}`,
      [
        {
          type: 'ChannelCreated',
          data: {
            channelId: c,
            config: { ...EMPTY_CHANNEL_CONFIG, name: `c${c}`, groups: ['default'], models: MODELS },
            key: { cipher: 'sealed', hash: `hash${c}` },
            status: 1,
            createdTime: start / 1000,
          },
        },
      ],
      setup,
    );
  }
  // Receipts as the batching appender writes them: a few hundred per append, two hours of traffic,
  // the ids, metadata and field values a real call has (32-hex request ids, a user actor).
  const perAppend = 200;
  for (let i = 0; i < receipts; i += perAppend) {
    const at = new Date(start + Math.floor((i / receipts) * 2 * 3600_000));
    const batch = [];
    for (let j = i; j < Math.min(receipts, i + perAppend); j++) {
      const tokenId = (j % TOKENS) + 1;
      const userId = ((tokenId - 1) % USERS) + 1;
      const requestId = hex32(`request ${j}`);
      const channelId = (j % CHANNELS) + 1;
      batch.push({
        id: randomUUID(),
        type: 'RequestRelayed',
        data: usageReceipt({
          requestId,
          userId,
          tokenId,
          tokenName: `token ${tokenId}`,
          channelId,
          channelChain: [channelId],
          model: MODELS[j % MODELS.length]!,
          promptTokens: 20 + (j % 900),
          completionTokens: 30 + (j % 400),
          quota: 25 + (j % 7000),
          useTimeMs: 120 + (j % 3000),
          firstTokenMs: j % 2 === 0 ? 40 + (j % 500) : null,
          stream: j % 2 === 0,
          ip: `203.0.113.${j % 250}`,
        }),
        metadata: {
          schemaVersion: 1,
          actor: { kind: 'user', id: userId, role: 1 },
          ip: `203.0.113.${j % 250}`,
          correlationId: hex32(`correlation ${j}`),
          causationId: requestId,
          occurredAt: new Date(at.getTime() + (j - i)).toISOString(),
        },
      });
    }
    await store.append(`usage-bench-${at.getUTCHours()}`, batch, 'any');
  }
  return USERS * 2 + TOKENS + CHANNELS + receipts;
}
