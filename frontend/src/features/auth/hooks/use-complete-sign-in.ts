import { useQueryClient } from '@tanstack/react-query';
import type { LoginResultDto } from '@tollgate/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '@/lib/notify';
import { setSessionUser } from '@/lib/session';
import { openDefaultPasswordModal } from '../components/default-password-modal';
import { dropUserQueries } from '../api/session-cache';

/** Shared end of every sign-in path: store the user, greet, warn about a default password, go on. */
export function useCompleteSignIn(): (user: LoginResultDto, destination: string) => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation();

  return useCallback(
    (user, destination) => {
      // Nothing cached for a previous user may leak into this session.
      dropUserQueries(queryClient);
      setSessionUser(user);
      notifySuccess(t('auth.loginSuccess'));
      if (user.default_password) {
        openDefaultPasswordModal(() => void navigate('/setting?tab=personal&dialog=password'));
      }
      void navigate(destination);
    },
    [navigate, queryClient, t],
  );
}
