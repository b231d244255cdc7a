import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '@/lib/notify';
import { clearSessionUser } from '@/lib/session';
import { selfApi } from '../api/self.api';
import { dropUserQueries } from '@/features/auth';

/** After deleting the own account the user is signed out and sent to /login. */
export function useDeleteAccount() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: selfApi.remove,
    onSuccess: () => {
      notifySuccess(t('setting.accountDeleted'));
      clearSessionUser();
      dropUserQueries(queryClient);
      void navigate('/login');
    },
  });
}
