import { useSyncExternalStore } from 'react';
import { getSessionUser, subscribeSession, type SessionUser } from '@/lib/session';

/** The locally stored user, re-rendering on sign-in, sign-out and changes from other tabs. */
export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore(subscribeSession, getSessionUser, getSessionUser);
}
