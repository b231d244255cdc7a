import { isAdmin } from '@tollgate/contracts';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { isSessionExpired } from '@/lib/session';
import { useSessionUser } from '../hooks/use-session-user';

/**
 * The login guard: no locally stored user → /login (with `?expired=true` after a 401). `admin`
 * pages also need role ≥ 10 on the stored user; cosmetic, the server checks every call itself.
 */
export function RequireAuth({ admin = false, children }: { admin?: boolean; children: ReactNode }) {
  const user = useSessionUser();
  if (!user) return <Navigate to={isSessionExpired() ? '/login?expired=true' : '/login'} replace />;
  if (admin && !isAdmin(user.role)) return <Navigate to="/" replace />;
  return children;
}
