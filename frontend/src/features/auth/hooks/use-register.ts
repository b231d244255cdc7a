import { useMutation } from '@tanstack/react-query';
import type { RegisterRequest } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '@/lib/notify';
import { authApi } from '../api/auth.api';

export function useRegister() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: ({ turnstile, ...body }: RegisterRequest & { turnstile: string }) =>
      authApi.register(body, turnstile),
    onSuccess: () => {
      notifySuccess(t('auth.registerSuccess'));
      void navigate('/login');
    },
  });
}
