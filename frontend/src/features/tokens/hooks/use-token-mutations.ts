import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateTokenRequest,
  UpdateTokenRequest,
  UpdateTokenStatusRequest,
} from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { tokenQueries, tokensApi } from '../api/tokens.api';

function useInvalidateTokens() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: tokenQueries.all });
}

/** One request creates the whole batch; the answer says how many were made. */
export function useCreateTokens() {
  const { t } = useTranslation();
  const invalidate = useInvalidateTokens();
  return useMutation({
    mutationFn: (body: CreateTokenRequest) => tokensApi.create(body),
    onSuccess: (result) => {
      const count = result?.count ?? 1;
      notifySuccess(count > 1 ? t('tokens.createdMany', { count }) : t('tokens.created'));
      return invalidate();
    },
  });
}

export function useUpdateToken() {
  const { t } = useTranslation();
  const invalidate = useInvalidateTokens();
  return useMutation({
    mutationFn: (body: UpdateTokenRequest) => tokensApi.update(body),
    onSuccess: () => {
      notifySuccess(t('tokens.updated'));
      return invalidate();
    },
  });
}

export function useSetTokenStatus() {
  const { t } = useTranslation();
  const invalidate = useInvalidateTokens();
  return useMutation({
    mutationFn: (body: UpdateTokenStatusRequest) => tokensApi.setStatus(body),
    onSuccess: () => {
      notifySuccess(t('tokens.operationDone'));
      return invalidate();
    },
  });
}

export function useDeleteToken() {
  const { t } = useTranslation();
  const invalidate = useInvalidateTokens();
  return useMutation({
    mutationFn: (id: number) => tokensApi.remove(id),
    onSuccess: () => {
      notifySuccess(t('tokens.deleted'));
      return invalidate();
    },
  });
}
