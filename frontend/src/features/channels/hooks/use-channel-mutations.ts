import { useMutation } from '@tanstack/react-query';
import type { ChannelDto, CreateChannelRequest, UpdateChannelRequest } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/http';
import {
  notifyError,
  notifyErrorDetail,
  notifyInfo,
  notifyRequestError,
  notifySuccess,
} from '@/lib/notify';
import { channelQueries, channelsApi } from '../api/channels.api';
import { useFailureText } from './use-failure-text';

// Static success toasts and the list refetch (after a failure too: a refused row value or a failed
// test that disabled the channel must show) come from `meta` (lib/query-client).
const invalidates = channelQueries.all;

export const useCreateChannel = () =>
  useMutation({
    mutationFn: (body: CreateChannelRequest) => channelsApi.create(body),
    meta: { success: 'channels.messages.created', invalidates },
  });

/** The panel's full update. */
export const useUpdateChannel = () =>
  useMutation({
    mutationFn: (body: UpdateChannelRequest) => channelsApi.update(body),
    meta: { success: 'channels.messages.updated', invalidates },
  });

/** Row edits: status, priority or weight alone (a partial update). */
export const usePatchChannel = () =>
  useMutation({
    mutationFn: (
      body: { id: number } & Partial<Pick<ChannelDto, 'status' | 'priority' | 'weight'>>,
    ) => channelsApi.update(body),
    meta: { success: 'common.operationDone', invalidates },
  });

export const useDeleteChannel = () =>
  useMutation({
    mutationFn: (id: number) => channelsApi.remove(id),
    meta: { success: 'common.operationDone', invalidates },
  });

/** The toast of the bulk actions that answer with a count. */
function useCountToast(key: 'channels.messages.deletedCount' | 'channels.messages.fixedCount') {
  const { t } = useTranslation();
  return (count: unknown) => notifySuccess(t(key, { count: Number(count) || 0 }));
}

export function useDeleteChannels() {
  const toast = useCountToast('channels.messages.deletedCount');
  return useMutation({
    mutationFn: (ids: number[]) => channelsApi.removeMany(ids),
    meta: { invalidates },
    onSuccess: toast,
  });
}

export function useDeleteDisabledChannels() {
  const toast = useCountToast('channels.messages.deletedCount');
  return useMutation({
    mutationFn: () => channelsApi.removeDisabled(),
    meta: { invalidates },
    onSuccess: toast,
  });
}

export function useFixChannels() {
  const toast = useCountToast('channels.messages.fixedCount');
  return useMutation({
    mutationFn: () => channelsApi.fix(),
    meta: { invalidates },
    onSuccess: toast,
  });
}

export function useCopyChannel() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (id: number) => channelsApi.copy(id),
    // This failure has its own message: 渠道复制失败, followed by the server's reason.
    meta: { silent: true, success: 'channels.messages.copied', invalidates },
    onError: (error) => {
      const reason = error instanceof ApiError ? error.message : '';
      notifyError(
        reason
          ? `${t('channels.messages.copyFailed')}：${reason}`
          : t('channels.messages.copyFailed'),
      );
    },
  });
}

export function useTestChannel() {
  const { t } = useTranslation();
  const describe = useFailureText();
  return useMutation({
    mutationFn: ({ channel, model }: { channel: ChannelDto; model?: string }) =>
      channelsApi.test(channel.id, model),
    // A failed test names the channel and says why in words; the upstream's text comes second.
    meta: { invalidates, silent: true },
    onError: (error, { channel }) => {
      if (!(error instanceof ApiError)) return notifyRequestError(error);
      const status = Number(error.envelope['status_code']) || 0;
      const { reason, detail } = describe(error.message, status);
      notifyErrorDetail(t('channels.messages.testFailed', { name: channel.name, reason }), detail);
    },
    onSuccess: (seconds, { channel }) =>
      notifyInfo(
        t('channels.messages.testSucceeded', {
          name: channel.name,
          seconds: (Number(seconds) || 0).toFixed(2),
        }),
      ),
  });
}

export function useTestAllChannels() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: () => channelsApi.testAll(),
    onSuccess: () => notifyInfo(t('channels.messages.testAllStarted')),
  });
}

export function useUpdateChannelBalance() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (channel: ChannelDto) => channelsApi.updateBalance(channel.id),
    meta: { invalidates },
    onSuccess: (_balance, channel) =>
      notifySuccess(t('channels.messages.balanceUpdated', { name: channel.name })),
  });
}

export const useUpdateAllBalances = () =>
  useMutation({
    mutationFn: () => channelsApi.updateAllBalances(),
    meta: { success: 'channels.messages.allBalancesUpdated', invalidates },
  });
