import { isAdmin } from '@tollgate/contracts';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSessionUser } from '../hooks/use-session-user';

/**
 * The login guard: no locally stored user → /login. `admin` pages also need role ≥ 10 on the
 * stored user; that is cosmetic, the server checks every call itself.
 */
export function RequireAuth({ admin = false, children }: { admin?: boolean; children: ReactNode }) {
  const user = useSessionUser();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (admin && !isAdmin(user.role)) return <Navigate to="/" replace />;
  return children;
}
