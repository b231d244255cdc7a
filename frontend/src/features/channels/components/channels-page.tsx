import { ActionIcon, Button, Group, Paper, Stack, Title, Tooltip } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { channelQueries } from '../api/channels.api';
import { useChannelPanelRoute } from '../hooks/use-channel-panel-route';
import { useChannelsTableParams } from '../hooks/use-channels-table-params';
import { useTaskPollStatus } from '../hooks/use-task-poll-status';
import { ChannelDrawer } from './channel-drawer';
import { ChannelsSearchBar } from './channels-search-bar';
import { ChannelsTable } from './channels-table';
import { ChannelsToolbar } from './channels-toolbar';

/**
 * 管理渠道: search, paged table, batch actions, and the add/edit side panel. The panel has its
 * own routes (/channel/add, /channel/edit/:id) over the same list, so a link opens it directly.
 */
export function ChannelsPage() {
  const { params, update, paginate, setIdSort } = useChannelsTableParams();
  const channels = useQuery(channelQueries.list(params));
  const pollStates = useTaskPollStatus(channels.data);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const panel = useChannelPanelRoute();
  const selectedIds = useMemo(
    () =>
      Object.entries(selection)
        .filter(([, selected]) => selected)
        .map(([rowId]) => Number(rowId)),
    [selection],
  );

  return (
    <Stack>
      <ChannelsPageHeader
        refreshing={channels.isFetching}
        onRefresh={() => void channels.refetch()}
        onAdd={panel.add}
      />
      <Paper withBorder p="md" radius="md">
        <Stack>
          <ChannelsSearchBar
            keyword={params.keyword}
            model={params.model}
            group={params.group}
            onSearch={(filters) => {
              setSelection({});
              update({ page: 1, filters });
            }}
          />
          <ChannelsToolbar
            selectedIds={selectedIds}
            onDeleted={() => setSelection({})}
            idSort={params.idSort}
            onIdSortChange={setIdSort}
          />
          <ChannelsTable
            rows={channels.data}
            paging={{ page: params.page, pageSize: params.pageSize, onPaginationChange: paginate }}
            loading={channels.isFetching}
            selection={selection}
            onSelectionChange={setSelection}
            onEdit={panel.edit}
            pollStates={pollStates}
          />
        </Stack>
      </Paper>
      {(panel.adding || panel.editingId !== undefined) && (
        <ChannelDrawer
          key={panel.editingId ?? 'add'}
          channelId={panel.editingId}
          onClose={panel.close}
        />
      )}
    </Stack>
  );
}

interface ChannelsPageHeaderProps {
  refreshing: boolean;
  onRefresh: () => void;
  onAdd: () => void;
}

function ChannelsPageHeader({ refreshing, onRefresh, onAdd }: ChannelsPageHeaderProps) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between">
      <Title order={2}>{t('channels.title')}</Title>
      <Group gap="xs">
        <Tooltip label={t('channels.refresh')}>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t('channels.refresh')}
            loading={refreshing}
            onClick={onRefresh}
          >
            <IconRefresh size={16} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={onAdd}>
          {t('channels.add')}
        </Button>
      </Group>
    </Group>
  );
}
