import { UserStatus } from '@tollgate/contracts';
import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tollgate/event-store';
import {
  TOKEN_EVENT_TYPES,
  USER_EVENT_TYPES,
  type TokenEvent,
  type TokenSettings,
  type UserEvent,
} from '@tollgate/domain';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';
import { sha256Hex } from '../infrastructure/secret-box';

export interface RelayToken {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  readonly status: 1 | 2 | 3 | 4; // enabled, disabled, expired, exhausted
  readonly expiredTime: number; // unix seconds, -1 = never
  readonly unlimitedQuota: boolean;
  readonly modelLimitsEnabled: boolean;
  readonly modelLimits: readonly string[];
  readonly allowIps: readonly string[]; // IPs and CIDRs
  readonly group: string; // '' = the user's group
  readonly rateLimits: { readonly rpm: number; readonly tpm: number; readonly concurrency: number }; // 0 = none
  readonly modelFallback: boolean; // false = its clients never get a fallback model
}
export interface RelayUser {
  readonly id: number;
  readonly username: string;
  readonly status: number; // 1 enabled
  readonly role: number;
  readonly group: string;
}

/**
 * Tokens by the SHA-256 of their key, and the users they belong to, for the relay's hot path. It
 * never holds a clear key: the events carry only the sealed key and its hash, and this map is
 * keyed by that hash. Fed by the process's cache subscription.
 */
@Injectable()
export class TokenDirectory implements HotCache {
  readonly name = 'token-directory';
  readonly eventTypes = [...USER_EVENT_TYPES, ...TOKEN_EVENT_TYPES];

  private readonly byHash = new Map<string, RelayToken>();
  private readonly hashById = new Map<number, string>();
  private readonly users = new Map<number, RelayUser>();

  apply(events: readonly RecordedEvent[]): void {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as TokenEvent | UserEvent;
      if ((TOKEN_EVENT_TYPES as readonly string[]).includes(event.type))
        this.applyToken(event as TokenEvent);
      else this.applyUser(event as UserEvent);
    }
  }

  /** key without the "sk-" prefix. */
  byKey(key: string): RelayToken | undefined {
    return this.byHash.get(sha256Hex(key));
  }

  byId(tokenId: number): RelayToken | undefined {
    const hash = this.hashById.get(tokenId);
    return hash === undefined ? undefined : this.byHash.get(hash);
  }

  user(userId: number): RelayUser | undefined {
    return this.users.get(userId);
  }

  private applyToken(event: TokenEvent): void {
    switch (event.type) {
      case 'TokenCreated':
        this.hashById.set(event.data.tokenId, event.data.keyHash);
        this.byHash.set(
          event.data.keyHash,
          relayToken(event.data.tokenId, event.data.userId, 1, event.data),
        );
        return;
      case 'TokenImported':
        if (event.data.deleted) return;
        this.hashById.set(event.data.tokenId, event.data.keyHash);
        this.byHash.set(
          event.data.keyHash,
          relayToken(
            event.data.tokenId,
            event.data.userId,
            event.data.status as RelayToken['status'],
            event.data,
          ),
        );
        return;
      case 'TokenUpdated':
        this.replace(event.data.tokenId, (t) => relayToken(t.id, t.userId, t.status, event.data));
        return;
      case 'TokenStatusChanged':
        this.replace(event.data.tokenId, (t) => ({
          ...t,
          status: event.data.to as RelayToken['status'],
        }));
        return;
      case 'TokenDeleted': {
        const hash = this.hashById.get(event.data.tokenId);
        if (hash !== undefined) this.byHash.delete(hash);
        this.hashById.delete(event.data.tokenId);
        return;
      }
    }
  }

  private replace(tokenId: number, change: (token: RelayToken) => RelayToken): void {
    const hash = this.hashById.get(tokenId);
    const token = hash === undefined ? undefined : this.byHash.get(hash);
    if (hash !== undefined && token) this.byHash.set(hash, change(token));
  }

  private applyUser(event: UserEvent): void {
    const id = event.data.userId;
    const current = this.users.get(id);
    switch (event.type) {
      case 'UserRegistered':
        this.users.set(id, {
          id,
          username: event.data.username,
          status: UserStatus.Enabled,
          role: event.data.role,
          group: event.data.group,
        });
        return;
      case 'UserImported':
        if (event.data.deleted) return;
        this.users.set(id, {
          id,
          username: event.data.username,
          status: event.data.status,
          role: event.data.role,
          group: event.data.group,
        });
        return;
      case 'UserRenamed':
        if (current) this.users.set(id, { ...current, username: event.data.to });
        return;
      case 'UserRoleChanged':
        if (current) this.users.set(id, { ...current, role: event.data.to });
        return;
      case 'UserStatusChanged':
        if (current) this.users.set(id, { ...current, status: event.data.to });
        return;
      case 'UserGroupChanged':
        if (current) this.users.set(id, { ...current, group: event.data.to });
        return;
      case 'UserDeregistered':
        this.users.delete(id);
        return;
      default:
        return;
    }
  }
}

function relayToken(
  id: number,
  userId: number,
  status: RelayToken['status'],
  settings: TokenSettings,
): RelayToken {
  return {
    id,
    userId,
    name: settings.name,
    status,
    expiredTime: settings.expiredTime,
    unlimitedQuota: settings.unlimitedQuota,
    modelLimitsEnabled: settings.modelLimitsEnabled,
    modelLimits: settings.modelLimits,
    allowIps: settings.allowIps,
    group: settings.group,
    rateLimits: settings.rateLimits,
    modelFallback: settings.modelFallback !== false,
  };
}
