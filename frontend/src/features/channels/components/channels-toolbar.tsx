import { Button, Group, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '@/components/confirm-action';
import { confirmDelete } from '@/components/confirm-delete';
import { notifyError } from '@/lib/notify';
import {
  useDeleteChannels,
  useDeleteDisabledChannels,
  useFixChannels,
  useTestAllChannels,
  useUpdateAllBalances,
} from '../hooks/use-channel-mutations';

interface ChannelsToolbarProps {
  selectedIds: number[];
  onDeleted: () => void;
  idSort: boolean;
  onIdSortChange: (value: boolean) => void;
}

/** The ID-sort switch, how many rows are selected, and the batch actions. */
export function ChannelsToolbar({
  selectedIds,
  onDeleted,
  idSort,
  onIdSortChange,
}: ChannelsToolbarProps) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Group gap="sm" wrap="wrap">
        <Switch
          label={t('channels.idSort')}
          checked={idSort}
          onChange={(event) => onIdSortChange(event.currentTarget.checked)}
        />
        {selectedIds.length > 0 && (
          <Text size="sm" c="dimmed">
            {t('channels.batch.selected', { count: selectedIds.length })}
          </Text>
        )}
      </Group>
      <ChannelsBatchButtons selectedIds={selectedIds} onDeleted={onDeleted} />
    </Group>
  );
}

/** Delete the selected or all disabled channels, fix, test all, update every balance. */
function ChannelsBatchButtons({
  selectedIds,
  onDeleted,
}: Pick<ChannelsToolbarProps, 'selectedIds' | 'onDeleted'>) {
  const { t } = useTranslation();
  const deleteMany = useDeleteChannels();
  const deleteDisabled = useDeleteDisabledChannels();
  const fix = useFixChannels();
  const testAll = useTestAllChannels();
  const updateAll = useUpdateAllBalances();

  const confirmDeleteSelected = () => {
    if (selectedIds.length === 0) return notifyError(t('channels.messages.selectToDelete'));
    confirmDelete(
      t('channels.confirm.deleteSelectedTitle'),
      t('channels.confirm.deleteSelected', { count: selectedIds.length }),
      () => deleteMany.mutate(selectedIds, { onSuccess: onDeleted }),
    );
  };
  const confirmDeleteDisabled = () =>
    confirmDelete(
      t('channels.confirm.deleteDisabledTitle'),
      t('channels.confirm.deleteDisabled'),
      () => deleteDisabled.mutate(),
    );

  const confirmFix = () =>
    confirmAction({
      title: t('channels.confirm.fixTitle'),
      text: t('channels.confirm.fix'),
      confirm: t('channels.confirm.fixConfirm'),
      onConfirm: () => fix.mutate(),
    });

  return (
    <Group gap="xs" wrap="wrap">
      <Button
        size="xs"
        variant="light"
        color="red"
        loading={deleteMany.isPending}
        onClick={confirmDeleteSelected}
      >
        {t('channels.batch.deleteSelected')}
      </Button>
      <Button
        size="xs"
        variant="light"
        color="red"
        loading={deleteDisabled.isPending}
        onClick={confirmDeleteDisabled}
      >
        {t('channels.batch.deleteDisabled')}
      </Button>
      <Button size="xs" variant="light" color="gray" loading={fix.isPending} onClick={confirmFix}>
        {t('channels.batch.fix')}
      </Button>
      <Button
        size="xs"
        variant="light"
        loading={testAll.isPending}
        onClick={() => testAll.mutate()}
      >
        {t('channels.batch.testAll')}
      </Button>
      <Button
        size="xs"
        variant="light"
        color="cyan"
        loading={updateAll.isPending}
        onClick={() => updateAll.mutate()}
      >
        {t('channels.batch.updateAllBalances')}
      </Button>
    </Group>
  );
}
