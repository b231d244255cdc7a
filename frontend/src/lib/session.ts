import type { LoginResultDto } from '@tollgate/contracts';
import { readString, removeItem, StorageKey, writeString } from './storage';

/** The signed-in user as kept in localStorage (`user`): the login reply, refreshed from /self. */
export type SessionUser = Pick<
  LoginResultDto,
  'id' | 'username' | 'display_name' | 'role' | 'status' | 'group'
>;

const listeners = new Set<() => void>();
let cachedRaw: string | null = null;
let cachedUser: SessionUser | null = null;
let expired = false;

function parse(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<SessionUser> | null;
    return value && typeof value.id === 'number' ? (value as SessionUser) : null;
  } catch {
    return null;
  }
}

/** Stable snapshot for useSyncExternalStore: a new object only when the stored text changes. */
export function getSessionUser(): SessionUser | null {
  const raw = readString(StorageKey.user);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedUser = parse(raw);
  }
  return cachedUser;
}

function emit(): void {
  listeners.forEach((listener) => listener());
}

export function setSessionUser(user: SessionUser): void {
  expired = false;
  const { id, username, display_name, role, status, group } = user;
  writeString(StorageKey.user, JSON.stringify({ id, username, display_name, role, status, group }));
  emit();
}

/** `expired`: the server ended the session (401), as opposed to a sign-out. */
export function clearSessionUser(reason: 'signed-out' | 'expired' = 'signed-out'): void {
  expired = reason === 'expired';
  removeItem(StorageKey.user);
  emit();
}

let renewals = 0;

/**
 * The server replaced this browser's session cookie (own password change: the old session ends,
 * the answer carries a fresh one). Connections that authenticated with the old cookie (the push
 * socket) reopen with the new one.
 */
export function sessionRenewed(): void {
  renewals += 1;
  emit();
}

/** How many times the cookie was renewed in this tab (a dependency for what must reopen). */
export function getSessionRenewals(): number {
  return renewals;
}

/** True after a 401 until the next sign-in: the login guard then adds `?expired=true`. */
export function isSessionExpired(): boolean {
  return expired;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes this tab's session too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === StorageKey.user) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
