import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateSelfRequest } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { selfApi, selfQueries } from '@/features/setting';
import { notifySuccess } from '@/lib/notify';

/** Editing oneself goes through the self endpoint (`PUT /api/user/self`), not the admin one. */
export function useUpdateSelfProfile() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSelfRequest) => selfApi.update(body),
    onSuccess: () => {
      notifySuccess(t('users.updated'));
      return queryClient.invalidateQueries({ queryKey: selfQueries.all });
    },
  });
}
