import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { clearSessionUser } from '@/lib/session';
import { authApi } from '../api/auth.api';
import { dropUserQueries } from '../api/session-cache';

/** Ends the session on the server and forgets the user locally, even if the call fails. */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  return useCallback(async () => {
    await authApi.logout().catch(() => undefined);
    clearSessionUser();
    dropUserQueries(queryClient);
    void navigate('/login');
  }, [navigate, queryClient]);
}
