import type { QueryClient } from '@tanstack/react-query';
import { dropUserQueries } from '@/features/auth';
import { configureHttp } from '@/lib/http';
import { notifyError } from '@/lib/notify';
import { clearSessionUser } from '@/lib/session';

interface Navigator {
  state: { location: { pathname: string } };
  navigate: (to: string) => Promise<void> | void;
}

/** One toast however many calls were in flight when the session ended. */
const SESSION_ENDED_NOTICE = 'session-ended';

/**
 * A 401 means the session is gone: forget the user and ask for a new login. A banned
 * user's session ends with an answer (用户已被封禁) that is shown before the login page.
 */
export function installSessionExpiry(queryClient: QueryClient, router: Navigator): void {
  const signOut = (reason: 'expired' | 'signed-out', to: string) => {
    // A guarded page re-rendering now redirects with the same flag (see RequireAuth).
    clearSessionUser(reason);
    dropUserQueries(queryClient);
    if (router.state.location.pathname !== '/login') void router.navigate(to);
  };
  configureHttp({
    onUnauthorized: () => signOut('expired', '/login?expired=true'),
    onSessionEnded: (message) => {
      notifyError(message, SESSION_ENDED_NOTICE);
      signOut('signed-out', '/login');
    },
  });
}
