import { ActionIcon, Button, Group, Menu, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconChevronDown, IconCoin, IconCopy } from '@tabler/icons-react';
import { ChannelStatus, type ChannelDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '@/components/confirm-delete';
import {
  deleteMenuItem,
  RowActions,
  type RowMenuItem,
  toggleMenuItem,
} from '@/components/row-actions';
import { HistoryDrawer, historyMenuItem } from '@/features/history';
import {
  useCopyChannel,
  useDeleteChannel,
  usePatchChannel,
  useTestChannel,
  useUpdateChannelBalance,
} from '../hooks/use-channel-mutations';
import { splitList } from '../utils/channel-display';

interface ChannelActionsProps {
  channel: ChannelDto;
  onEdit: (id: number) => void;
}

/** A row's actions: test (with a model choice) and edit; the rarer ones in the "…" menu. */
export function ChannelActions({ channel, onEdit }: ChannelActionsProps) {
  const { t } = useTranslation();
  const more = useChannelMenu(channel);
  return (
    <RowActions
      primary={
        <>
          <ChannelTestButton channel={channel} />
          <Button size="compact-xs" variant="light" color="gray" onClick={() => onEdit(channel.id)}>
            {t('common.edit')}
          </Button>
        </>
      }
      menu={more.menu}
      busy={more.busy}
    >
      <HistoryDrawer
        opened={more.historyOpened}
        onClose={more.closeHistory}
        subject={{ kind: 'channel', id: channel.id }}
        name={channel.name}
      />
    </RowActions>
  );
}

/** Tests the channel with its test model, or with a model picked from the menu beside. */
function ChannelTestButton({ channel }: { channel: ChannelDto }) {
  const { t } = useTranslation();
  const test = useTestChannel();
  const models = splitList(channel.models);
  return (
    <Group gap={0} wrap="nowrap">
      <Button
        size="compact-xs"
        variant="light"
        loading={test.isPending}
        onClick={() => test.mutate({ channel })}
        style={{ borderTopRightRadius: 0, borderBottomRightRadius: 0 }}
      >
        {t('channels.actions.test')}
      </Button>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon
            size={22}
            variant="light"
            aria-label={t('channels.actions.chooseTestModel')}
            disabled={test.isPending}
            style={{ borderTopLeftRadius: 0, borderBottomLeftRadius: 0 }}
          >
            <IconChevronDown size={12} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{t('channels.actions.chooseTestModel')}</Menu.Label>
          <ScrollArea.Autosize mah={260}>
            {models.map((model) => (
              <Menu.Item key={model} onClick={() => test.mutate({ channel, model })}>
                {model}
              </Menu.Item>
            ))}
          </ScrollArea.Autosize>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

/**
 * The less frequent actions share the "…" menu so the row fits beside the sidebar: enable /
 * disable, update balance, copy, history, delete.
 */
function useChannelMenu(channel: ChannelDto) {
  const { t } = useTranslation();
  const patch = usePatchChannel();
  const enabled = channel.status === ChannelStatus.Enabled;
  const balance = useUpdateChannelBalance();
  const copy = useCopyChannel();
  const remove = useDeleteChannel();
  const [historyOpened, history] = useDisclosure(false);

  const askDelete = () =>
    confirmDelete(
      t('channels.confirm.deleteTitle'),
      t('channels.confirm.delete', { name: channel.name }),
      () => remove.mutate(channel.id),
    );
  const confirmCopy = () =>
    modals.openConfirmModal({
      title: t('channels.confirm.copyTitle'),
      children: <Text size="sm">{t('channels.confirm.copy', { name: channel.name })}</Text>,
      labels: { confirm: t('common.copy'), cancel: t('common.cancel') },
      onConfirm: () => copy.mutate(channel.id),
    });
  const toggle = () =>
    patch.mutate({
      id: channel.id,
      status: enabled ? ChannelStatus.ManuallyDisabled : ChannelStatus.Enabled,
    });

  const menu: RowMenuItem[] = [
    toggleMenuItem(t, enabled, toggle),
    {
      label: t('channels.actions.updateBalance'),
      icon: <IconCoin size={14} />,
      onClick: () => balance.mutate(channel),
    },
    { label: t('common.copy'), icon: <IconCopy size={14} />, onClick: confirmCopy },
    historyMenuItem(t, history.open),
    deleteMenuItem(t, askDelete),
  ];
  return {
    menu,
    busy: balance.isPending || copy.isPending || remove.isPending || patch.isPending,
    historyOpened,
    closeHistory: history.close,
  };
}
