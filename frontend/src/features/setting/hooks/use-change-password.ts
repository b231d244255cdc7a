import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { sessionRenewed } from '@/lib/session';
import { selfApi } from '../api/self.api';

export function useChangePassword() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: ({ current, next }: { current: string; next: string }) =>
      selfApi.update({ password: next, original_password: current }),
    onSuccess: () => {
      sessionRenewed();
      notifySuccess(t('setting.passwordChanged'));
    },
  });
}
