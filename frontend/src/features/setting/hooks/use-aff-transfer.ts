import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { selfApi, selfQueries } from '../api/self.api';

export function useAffTransfer() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: selfApi.transferAffQuota,
    onSuccess: () => {
      notifySuccess(t('setting.transferSuccess'));
      return queryClient.invalidateQueries({ queryKey: selfQueries.all });
    },
  });
}
