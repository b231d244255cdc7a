import { Inject, Injectable, Logger } from '@nestjs/common';
import { isAdmin, TokenStatus, UserStatus } from '@tollgate/contracts';
import type { IncomingHttpHeaders } from 'node:http';
import { ipAllowed, type IngressKind, type RelayError } from '@tollgate/relay';
import type { Lang } from '../shared/i18n/messages';
import { clientKey } from './client-key';
import {
  BALANCE_BOOK_PORT,
  type BalanceBookPort,
  RELAY_COMMANDS_PORT,
  type RelayCommandsPort,
  type RelayToken,
  type RelayUser,
  TOKEN_DIRECTORY_PORT,
  type TokenDirectoryPort,
} from './relay-ports';
import { relayError } from './relay-http';

/** Who a relay request bills, from memory only. */
export interface Caller {
  readonly user: RelayUser;
  /** Undefined for the playground (billed to the user alone). */
  readonly token: RelayToken | undefined;
  /** `sk-<key>-<channelId>` (administrators only). */
  readonly pinnedChannelId: number | undefined;
}

export type Admission = { ok: true; caller: Caller } | { ok: false; error: RelayError };

/** The key of an Authorization header: `Bearer sk-…`, `Bearer …`, or the bare key. */
export function keyOfAuthorization(header: string | undefined): string {
  let key = (header ?? '').trim();
  if (/^bearer\s/i.test(key)) key = key.slice(6).trim();
  if (key.startsWith('sk-')) key = key.slice(3);
  return key;
}

/**
 * Token admission (one-api's and new-api's TokenAuth + Distribute checks): key, token status and expiry,
 * remaining quota, user status, IP allow-list, pinned channel. Expiry and exhaustion seen here are
 * recorded as events through the tokens module's commands (idempotent there).
 */
@Injectable()
export class RelayAdmission {
  private readonly logger = new Logger(RelayAdmission.name);

  constructor(
    @Inject(TOKEN_DIRECTORY_PORT) private readonly directory: TokenDirectoryPort,
    @Inject(BALANCE_BOOK_PORT) private readonly book: BalanceBookPort,
    @Inject(RELAY_COMMANDS_PORT) private readonly commands: RelayCommandsPort,
  ) {}

  /**
   * A relay request's admission, now: its key taken where `ingress`'s clients put it
   * (client-key.ts). The Fastify routes' gate and the fast lane both admit through this.
   */
  admitClient(
    ingress: IngressKind | undefined,
    headers: IncomingHttpHeaders,
    query: Readonly<Record<string, unknown>>,
    ip: string,
    lang: Lang,
  ): Admission {
    return this.admitToken(clientKey(ingress, headers, query), ip, lang, Date.now());
  }

  admitToken(authorization: string | undefined, ip: string, lang: Lang, nowMs: number): Admission {
    const fail = (status: number, code: string, params: Record<string, string | number> = {}) => ({
      ok: false as const,
      error: relayError({
        lang,
        status,
        key: code,
        params,
        type: status === 401 ? 'authentication_error' : 'permission_error',
        code: code.replace(/^relay\./, ''),
      }),
    });
    const raw = keyOfAuthorization(authorization);
    if (raw === '') return fail(401, 'relay.token_missing');
    const dash = raw.indexOf('-');
    const key = dash === -1 ? raw : raw.slice(0, dash);
    const pinnedText = dash === -1 ? undefined : raw.slice(dash + 1);
    const token = this.directory.byKey(key);
    if (!token) return fail(401, 'relay.token_invalid');
    if (token.status === TokenStatus.Disabled) return fail(401, 'relay.token_disabled');
    if (token.status === TokenStatus.Expired) return fail(401, 'relay.token_expired');
    if (token.status === TokenStatus.Exhausted) return fail(401, 'relay.token_exhausted');
    if (token.status !== TokenStatus.Enabled) return fail(401, 'relay.token_disabled');
    if (token.expiredTime !== -1 && token.expiredTime * 1000 <= nowMs) {
      this.record(this.commands.markTokenExpired(token.id), 'mark token expired');
      return fail(401, 'relay.token_expired');
    }
    // Used up by its charges; quota merely held by other requests' reservations is not (they
    // may settle for less: the reservation step waits for them).
    if (!token.unlimitedQuota && (this.book.tokenSettledRemaining(token.id) ?? 0) <= 0) {
      this.record(this.commands.markTokenExhausted(token.id), 'mark token exhausted');
      return fail(401, 'relay.token_exhausted');
    }
    const user = this.directory.user(token.userId);
    if (!user || user.status !== UserStatus.Enabled) return fail(403, 'relay.user_banned');
    if (!ipAllowed(token.allowIps, ip)) return fail(403, 'relay.ip_not_allowed');
    let pinnedChannelId: number | undefined;
    if (pinnedText !== undefined && pinnedText !== '') {
      if (!isAdmin(user.role)) return fail(403, 'relay.pin_forbidden');
      const id = Number(pinnedText);
      if (!Number.isInteger(id) || id <= 0) {
        return fail(403, 'relay.pinned_channel_invalid', { id: pinnedText.slice(0, 20) });
      }
      pinnedChannelId = id;
    }
    return { ok: true, caller: { user, token, pinnedChannelId } };
  }

  /** The playground's caller: a signed-in, enabled user, billed without a token. */
  admitUser(userId: number, lang: Lang): Admission {
    const user = this.directory.user(userId);
    if (!user || user.status !== UserStatus.Enabled) {
      return {
        ok: false,
        error: relayError({
          lang,
          status: 403,
          key: 'relay.user_banned',
          type: 'permission_error',
          code: 'user_banned',
        }),
      };
    }
    return { ok: true, caller: { user, token: undefined, pinnedChannelId: undefined } };
  }

  private record(promise: Promise<unknown>, what: string): void {
    promise.catch((error: unknown) => this.logger.warn(`${what}: ${String(error)}`));
  }
}
