import { useMutation } from '@tanstack/react-query';
import type {
  CreateRedemptionRequest,
  UpdateRedemptionRequest,
  UpdateRedemptionStatusRequest,
} from '@tollgate/contracts';
import { redemptionQueries, redemptionsApi } from '../api/redemptions.api';

// Success toasts and the list refetch come from `meta` (lib/query-client).
const invalidates = redemptionQueries.all;

export const useCreateRedemptions = () =>
  useMutation({
    mutationFn: (body: CreateRedemptionRequest) => redemptionsApi.create(body),
    meta: { success: 'redemptions.created', invalidates },
  });

export const useUpdateRedemption = () =>
  useMutation({
    mutationFn: (body: UpdateRedemptionRequest) => redemptionsApi.update(body),
    meta: { success: 'redemptions.updated', invalidates },
  });

export const useSetRedemptionStatus = () =>
  useMutation({
    mutationFn: (body: UpdateRedemptionStatusRequest) => redemptionsApi.setStatus(body),
    meta: { success: 'common.operationDone', invalidates },
  });

export const useDeleteRedemption = () =>
  useMutation({
    mutationFn: (id: number) => redemptionsApi.remove(id),
    meta: { success: 'common.deleted', invalidates },
  });
