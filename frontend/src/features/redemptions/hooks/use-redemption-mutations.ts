import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateRedemptionRequest,
  UpdateRedemptionRequest,
  UpdateRedemptionStatusRequest,
} from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { redemptionQueries, redemptionsApi } from '../api/redemptions.api';

function useInvalidateRedemptions() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: redemptionQueries.all });
}

export function useCreateRedemptions() {
  const { t } = useTranslation();
  const invalidate = useInvalidateRedemptions();
  return useMutation({
    mutationFn: (body: CreateRedemptionRequest) => redemptionsApi.create(body),
    onSuccess: () => {
      notifySuccess(t('redemptions.created'));
      return invalidate();
    },
  });
}

export function useUpdateRedemption() {
  const { t } = useTranslation();
  const invalidate = useInvalidateRedemptions();
  return useMutation({
    mutationFn: (body: UpdateRedemptionRequest) => redemptionsApi.update(body),
    onSuccess: () => {
      notifySuccess(t('redemptions.updated'));
      return invalidate();
    },
  });
}

export function useSetRedemptionStatus() {
  const { t } = useTranslation();
  const invalidate = useInvalidateRedemptions();
  return useMutation({
    mutationFn: (body: UpdateRedemptionStatusRequest) => redemptionsApi.setStatus(body),
    onSuccess: () => {
      notifySuccess(t('redemptions.operationDone'));
      return invalidate();
    },
  });
}

export function useDeleteRedemption() {
  const { t } = useTranslation();
  const invalidate = useInvalidateRedemptions();
  return useMutation({
    mutationFn: (id: number) => redemptionsApi.remove(id),
    onSuccess: () => {
      notifySuccess(t('redemptions.deleted'));
      return invalidate();
    },
  });
}
