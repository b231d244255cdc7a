import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tollgate/event-store';
import { Role, UserStatus } from '@tollgate/contracts';
import type {
  ChannelCreated,
  ChannelUpdated,
  NoticeDeliveryAttempted,
  NoticeRaised,
  NotifyType,
  SealedSecret,
  UserEvent,
} from '@tollgate/domain';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';

/** What delivery needs to know of a user, folded from the user-<id> stream. */
export interface Recipient {
  readonly userId: number;
  role: number;
  status: number;
  deleted: boolean;
  /** The registered or last bound email. */
  email: string;
  notifyType: NotifyType;
  webhookUrl: string;
  sealedWebhookSecret: SealedSecret | null;
  notificationEmail: string;
  acceptAdminAlerts: boolean;
}

export interface NoticeAttempt {
  readonly attempt: number;
  readonly ok: boolean;
  readonly status: number;
  readonly error: string;
  readonly time: number;
  readonly final: boolean;
}

export interface NoticeRecord {
  readonly raised: NoticeRaised['data'];
  readonly attempts: NoticeAttempt[];
  /** Delivered or given up. */
  closed: boolean;
}

/** Notices kept per user for `GET /api/user/notices` (the oldest are dropped). */
export const NOTICES_KEPT_PER_USER = 100;

/**
 * The notices' in-memory view of the log: each user's notification settings, role and email (who
 * gets what, where), channel names, and every user's recent notices with their delivery attempts
 * (what the owner lists, and what is still to be delivered after a restart). Fed by the cache
 * feed; `apply` only folds.
 */
@Injectable()
export class NoticeDirectory implements HotCache {
  readonly name = 'notice-directory';
  readonly eventTypes = [
    'UserRegistered',
    'UserImported',
    'UserEmailBound',
    'UserRoleChanged',
    'UserStatusChanged',
    'UserDeregistered',
    'UserNotificationSettingsChanged',
    'ChannelCreated',
    'ChannelImported',
    'ChannelUpdated',
    'NoticeRaised',
    'NoticeDeliveryAttempted',
  ];

  private readonly users = new Map<number, Recipient>();
  private readonly notices = new Map<number, NoticeRecord[]>();
  private readonly byId = new Map<string, NoticeRecord>();
  private readonly channelNames = new Map<number, string>();

  apply(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      switch (event.type) {
        case 'ChannelCreated':
        case 'ChannelImported': {
          const d = (event as unknown as ChannelCreated).data;
          this.channelNames.set(d.channelId, d.config.name);
          break;
        }
        case 'ChannelUpdated': {
          const d = (event as unknown as ChannelUpdated).data;
          if (d.changes.name !== undefined) this.channelNames.set(d.channelId, d.changes.name);
          break;
        }
        case 'NoticeRaised':
          this.applyRaised((event as unknown as NoticeRaised).data);
          break;
        case 'NoticeDeliveryAttempted':
          this.applyAttempt((event as unknown as NoticeDeliveryAttempted).data);
          break;
        default:
          this.applyUser({ type: event.type, data: event.data } as UserEvent);
      }
    }
  }

  recipient(userId: number): Recipient | undefined {
    return this.users.get(userId);
  }

  /** Root and the administrators who accept channel alerts, enabled and not deleted. */
  alertRecipients(): Recipient[] {
    return [...this.users.values()].filter(
      (u) =>
        !u.deleted &&
        u.status === UserStatus.Enabled &&
        (u.role >= Role.Root || (u.role >= Role.Admin && u.acceptAdminAlerts)),
    );
  }

  channelName(channelId: number): string {
    return this.channelNames.get(channelId) ?? `#${channelId}`;
  }

  /** Newest first. */
  noticesOf(userId: number): readonly NoticeRecord[] {
    return [...(this.notices.get(userId) ?? [])].reverse();
  }

  /** Notices not delivered, not given up (what a restart picks up again). */
  open(): NoticeRecord[] {
    return [...this.byId.values()].filter((n) => !n.closed);
  }

  private applyRaised(data: NoticeRaised['data']): void {
    if (this.byId.has(data.noticeId)) return;
    const record: NoticeRecord = { raised: data, attempts: [], closed: false };
    const list = this.notices.get(data.userId) ?? [];
    list.push(record);
    if (list.length > NOTICES_KEPT_PER_USER) {
      const dropped = list.shift()!;
      this.byId.delete(dropped.raised.noticeId);
    }
    this.notices.set(data.userId, list);
    this.byId.set(data.noticeId, record);
  }

  private applyAttempt(data: NoticeDeliveryAttempted['data']): void {
    const record = this.byId.get(data.noticeId);
    if (!record) return;
    const { noticeId: _n, userId: _u, channel: _c, ...attempt } = data;
    record.attempts.push(attempt);
    if (data.final) record.closed = true;
  }

  private applyUser(event: UserEvent): void {
    if (event.type === 'UserRegistered' || event.type === 'UserImported') {
      const d = event.data;
      const imported = event.type === 'UserImported' ? event.data : undefined;
      this.users.set(d.userId, {
        userId: d.userId,
        role: d.role,
        status: imported?.status ?? 1,
        deleted: imported?.deleted ?? false,
        email: d.email,
        notifyType: 'email',
        webhookUrl: '',
        sealedWebhookSecret: null,
        notificationEmail: '',
        acceptAdminAlerts: false,
      });
      return;
    }
    const user = this.users.get(event.data.userId);
    if (!user) return;
    switch (event.type) {
      case 'UserEmailBound':
        user.email = event.data.email;
        return;
      case 'UserRoleChanged':
        user.role = event.data.to;
        if (user.role < Role.Admin) user.acceptAdminAlerts = false;
        return;
      case 'UserStatusChanged':
        user.status = event.data.to;
        return;
      case 'UserDeregistered':
        user.deleted = true;
        return;
      case 'UserNotificationSettingsChanged': {
        const d = event.data;
        user.notifyType = d.notifyType;
        user.webhookUrl = d.webhookUrl;
        user.sealedWebhookSecret = d.sealedWebhookSecret;
        user.notificationEmail = d.notificationEmail;
        user.acceptAdminAlerts = d.acceptAdminAlerts;
        return;
      }
      default:
        return;
    }
  }
}
