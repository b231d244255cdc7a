import type { RecordedEvent } from '@tollgate/event-store';
import type { ChangedEvent } from '@tollgate/contracts';

export type Audience = 'admins' | 'root' | 'everyone' | `user:${number}`;

export interface Push {
  readonly to: Audience;
  readonly event: ChangedEvent;
}

/**
 * What each applied batch means for connected consoles: only topics and ids, never data, so no
 * push can leak a secret. Duplicates within a batch collapse to one push.
 */
export function pushesFor(projection: string, events: readonly RecordedEvent[]): Push[] {
  const pushes = new Map<string, Push>();
  const add = (push: Push) =>
    pushes.set(`${push.to}|${push.event.topic}|${push.event.id ?? ''}`, push);
  for (const event of events) {
    if (projection === 'users') {
      const userId = (event.data as { userId?: unknown }).userId;
      if (typeof userId !== 'number') continue;
      // A usage receipt moves a balance on every relayed request: admins get one push per burst
      // for those (their console refreshes the whole list either way), not one per active user.
      const relayed = event.type === 'RequestRelayed';
      add({ to: 'admins', event: relayed ? { topic: 'users' } : { topic: 'users', id: userId } });
      add({ to: `user:${userId}`, event: { topic: 'self', id: userId } });
    } else if (projection === 'tokens') {
      // No id: a burst (a batch create, usage receipts) stays one push per audience.
      const userId = (event.data as { userId?: unknown }).userId;
      if (typeof userId !== 'number') continue;
      add({ to: `user:${userId}`, event: { topic: 'tokens' } });
      add({ to: 'admins', event: { topic: 'tokens' } });
    } else if (projection === 'redemptions') {
      add({ to: 'admins', event: { topic: 'redemptions' } });
    } else if (projection === 'logs') {
      // Rows dropped for everyone: cleared by root, or an archived hour's calls (retention).
      if (event.type === 'LogsCleared' || event.type === 'UsageArchived') {
        add({ to: 'everyone', event: { topic: 'logs' } });
        continue;
      }
      // The log projection also follows registrations and renames (usernames), which add no row.
      if (event.type === 'UserRegistered' || event.type === 'UserRenamed') continue;
      const userId = (event.data as { userId?: unknown }).userId;
      if (typeof userId !== 'number') continue;
      add({ to: `user:${userId}`, event: { topic: 'logs' } });
      add({ to: 'admins', event: { topic: 'logs' } });
    } else if (projection === 'quota-data') {
      // The dashboard refetches once its rows hold the receipt (not when the log row lands).
      if (event.type !== 'RequestRelayed') continue;
      const userId = (event.data as { userId?: unknown }).userId;
      if (typeof userId !== 'number') continue;
      add({ to: `user:${userId}`, event: { topic: 'usage' } });
      add({ to: 'admins', event: { topic: 'usage' } });
    } else if (projection === 'channel-performance') {
      // Receipts and failed calls: one push per batch, admins only (the figures are theirs).
      add({ to: 'admins', event: { topic: 'performance' } });
    } else if (projection === 'options') {
      add({ to: 'everyone', event: { topic: 'status' } });
      add({ to: 'root', event: { topic: 'options' } });
    } else if (projection === 'channels') {
      // Usage receipts, summaries and task refunds only move used_quota: never a push for them.
      if (['RequestRelayed', 'UsageSummarized', 'TaskRefunded'].includes(event.type)) continue;
      const channelId = (event.data as { channelId?: unknown }).channelId;
      add({
        to: 'admins',
        event:
          typeof channelId === 'number'
            ? { topic: 'channels', id: channelId }
            : { topic: 'channels' },
      });
    } else if (projection === 'task-log') {
      // Every task event names its owner: the owner's task list and the admins' refetch.
      const userId = (event.data as { userId?: unknown }).userId;
      if (typeof userId !== 'number') continue;
      add({ to: 'admins', event: { topic: 'tasks' } });
      add({ to: `user:${userId}`, event: { topic: 'tasks' } });
    }
  }
  return [...pushes.values()];
}
