import { useMutation } from '@tanstack/react-query';
import type {
  CreateTokenRequest,
  UpdateTokenRequest,
  UpdateTokenStatusRequest,
} from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { tokenQueries, tokensApi } from '../api/tokens.api';

// Success toasts and the list refetch come from `meta` (lib/query-client).
const invalidates = tokenQueries.all;

/** One request creates the whole batch; the answer says how many were made. */
export function useCreateTokens() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (body: CreateTokenRequest) => tokensApi.create(body),
    meta: { invalidates },
    onSuccess: (result) => {
      const count = result?.count ?? 1;
      notifySuccess(count > 1 ? t('tokens.createdMany', { count }) : t('tokens.created'));
    },
  });
}

export const useUpdateToken = () =>
  useMutation({
    mutationFn: (body: UpdateTokenRequest) => tokensApi.update(body),
    meta: { success: 'tokens.updated', invalidates },
  });

export const useSetTokenStatus = () =>
  useMutation({
    mutationFn: (body: UpdateTokenStatusRequest) => tokensApi.setStatus(body),
    meta: { success: 'common.operationDone', invalidates },
  });

export const useDeleteToken = () =>
  useMutation({
    mutationFn: (id: number) => tokensApi.remove(id),
    meta: { success: 'common.deleted', invalidates },
  });
