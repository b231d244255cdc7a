import type { QueryClient } from '@tanstack/react-query';
import { dropUserQueries } from '@/features/auth';
import { configureHttp } from '@/lib/http';
import { clearSessionUser } from '@/lib/session';

interface Navigator {
  state: { location: { pathname: string } };
  navigate: (to: string) => Promise<void> | void;
}

/** A 401 means the session is gone: forget the user and ask for a new login (spec 000 §6). */
export function installSessionExpiry(queryClient: QueryClient, router: Navigator): void {
  configureHttp({
    onUnauthorized: () => {
      // A guarded page re-rendering now redirects with the same flag (see RequireAuth).
      clearSessionUser('expired');
      dropUserQueries(queryClient);
      if (router.state.location.pathname !== '/login') void router.navigate('/login?expired=true');
    },
  });
}
