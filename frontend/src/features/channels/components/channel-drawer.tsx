import { Center, Drawer, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/lib/notify';
import { channelQueries } from '../api/channels.api';
import { useCreateChannel, useUpdateChannel } from '../hooks/use-channel-mutations';
import { channelToForm, emptyChannelForm } from '../utils/channel-form';
import { ChannelForm } from './channel-form/channel-form';

interface ChannelDrawerProps {
  /** The channel being edited; absent when adding. */
  channelId?: number;
  onClose: () => void;
}

/** The add/edit side panel. */
export function ChannelDrawer({ channelId, onClose }: ChannelDrawerProps) {
  const { t } = useTranslation();
  const editing = channelId !== undefined;
  const detail = useQuery({ ...channelQueries.detail(channelId ?? 0), enabled: editing });
  const create = useCreateChannel();
  const update = useUpdateChannel();

  // A channel deleted meanwhile (or a stale link): ask the user to refresh, and close.
  useEffect(() => {
    if (editing && detail.isError) {
      notifyError(t('channels.messages.notFound'));
      onClose();
    }
  }, [editing, detail.isError, onClose, t]);

  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size={640}
      title={editing ? t('channels.form.editTitle') : t('channels.form.addTitle')}
      closeButtonProps={{ 'aria-label': t('channels.form.close') }}
    >
      {editing ? (
        detail.data ? (
          <ChannelForm
            key={channelId}
            channelId={channelId}
            initial={channelToForm(detail.data)}
            saving={update.isPending}
            onCancel={onClose}
            onSubmit={(body) => {
              // An empty key keeps the stored one.
              const { key, ...rest } = body;
              update.mutate(
                { id: channelId, ...rest, ...(key ? { key } : {}) },
                { onSuccess: onClose },
              );
            }}
          />
        ) : (
          <Center py="xl">
            <Loader />
          </Center>
        )
      ) : (
        <ChannelForm
          initial={emptyChannelForm()}
          saving={create.isPending}
          onCancel={onClose}
          onSubmit={(body) => create.mutate(body, { onSuccess: onClose })}
        />
      )}
    </Drawer>
  );
}
