import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChannelDto, CreateChannelRequest, UpdateChannelRequest } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/http';
import { notifyError, notifyInfo, notifySuccess } from '@/lib/notify';
import { channelQueries, channelsApi } from '../api/channels.api';

function useInvalidateChannels() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: channelQueries.all });
}

export function useCreateChannel() {
  const { t } = useTranslation();
  const invalidate = useInvalidateChannels();
  return useMutation({
    mutationFn: (body: CreateChannelRequest) => channelsApi.create(body),
    onSuccess: () => {
      notifySuccess(t('channels.messages.created'));
      return invalidate();
    },
  });
}

/** The panel's full update. */
export function useUpdateChannel() {
  const { t } = useTranslation();
  const invalidate = useInvalidateChannels();
  return useMutation({
    mutationFn: (body: UpdateChannelRequest) => channelsApi.update(body),
    onSuccess: () => {
      notifySuccess(t('channels.messages.updated'));
      return invalidate();
    },
  });
}

/** Row edits: status, priority or weight alone (a partial update). */
export function usePatchChannel() {
  const { t } = useTranslation();
  const invalidate = useInvalidateChannels();
  return useMutation({
    mutationFn: (
      body: { id: number } & Partial<Pick<ChannelDto, 'status' | 'priority' | 'weight'>>,
    ) => channelsApi.update(body),
    onSuccess: () => {
      notifySuccess(t('channels.messages.operationDone'));
      return invalidate();
    },
    // A refused value must not stay in the row's input: refetch what the server holds.
    onError: () => invalidate(),
  });
}

export function useDeleteChannel() {
  const { t } = useTranslation();
  const invalidate = useInvalidateChannels();
  return useMutation({
    mutationFn: (id: number) => channelsApi.remove(id),
    onSuccess: () => {
      notifySuccess(t('channels.messages.operationDone'));
      return invalidate();
    },
  });
}

export function useDeleteChannels() {
  const { t } = useTranslation();
  const invalidate = useInvalidateChannels();
  return useMutation({
    mutationFn: (ids: number[]) => channelsApi.removeMany(ids),
    onSuccess: (count) => {
      notifySuccess(t('channels.messages.deletedCount', { count: Number(count) || 0 }));
      return invalidate();
    },
  });
}

export function useDeleteDisabledChannels() {
  const { t } = useTranslation();
  const invalidate = useInvalidateChannels();
  return useMutation({
    mutationFn: () => channelsApi.removeDisabled(),
    onSuccess: (count) => {
      notifySuccess(t('channels.messages.deletedCount', { count: Number(count) || 0 }));
      return invalidate();
    },
  });
}

export function useFixChannels() {
  const { t } = useTranslation();
  const invalidate = useInvalidateChannels();
  return useMutation({
    mutationFn: () => channelsApi.fix(),
    onSuccess: (count) => {
      notifySuccess(t('channels.messages.fixedCount', { count: Number(count) || 0 }));
      return invalidate();
    },
  });
}

export function useCopyChannel() {
  const { t } = useTranslation();
  const invalidate = useInvalidateChannels();
  return useMutation({
    mutationFn: (id: number) => channelsApi.copy(id),
    // Spec 000 §8 names this failure itself: 渠道复制失败, followed by the server's reason.
    meta: { silent: true },
    onSuccess: () => {
      notifySuccess(t('channels.messages.copied'));
      return invalidate();
    },
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
  const invalidate = useInvalidateChannels();
  return useMutation({
    mutationFn: ({ channel, model }: { channel: ChannelDto; model?: string }) =>
      channelsApi.test(channel.id, model),
    onSuccess: (seconds, { channel }) => {
      notifyInfo(
        t('channels.messages.testSucceeded', {
          name: channel.name,
          seconds: (Number(seconds) || 0).toFixed(2),
        }),
      );
      return invalidate();
    },
    // A failed test also recorded its result (and maybe disabled the channel).
    onError: () => invalidate(),
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
  const invalidate = useInvalidateChannels();
  return useMutation({
    mutationFn: (channel: ChannelDto) => channelsApi.updateBalance(channel.id),
    onSuccess: (_balance, channel) => {
      notifySuccess(t('channels.messages.balanceUpdated', { name: channel.name }));
      return invalidate();
    },
  });
}

export function useUpdateAllBalances() {
  const { t } = useTranslation();
  const invalidate = useInvalidateChannels();
  return useMutation({
    mutationFn: () => channelsApi.updateAllBalances(),
    onSuccess: () => {
      notifySuccess(t('channels.messages.allBalancesUpdated'));
      return invalidate();
    },
  });
}
