import { ActionIcon, Button, Group, Paper, Stack, Title, Tooltip } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { channelQueries } from '../api/channels.api';
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
  const { t } = useTranslation();
  const { params, update, paginate, setIdSort } = useChannelsTableParams();
  const channels = useQuery(channelQueries.list(params));
  const pollStates = useTaskPollStatus(channels.data);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const navigate = useNavigate();
  const location = useLocation();
  // The panel follows the path: /channel/add, /channel/edit/:id.
  const adding = /\/channel\/add\/?$/.test(location.pathname);
  const editMatch = /\/channel\/edit\/(\d+)\/?$/.exec(location.pathname);
  const editingId = editMatch?.[1] ? Number(editMatch[1]) : undefined;

  const open = useCallback(
    (pathname: string) => void navigate({ pathname, search: location.search }),
    [navigate, location.search],
  );
  const closePanel = useCallback(() => open('/channel'), [open]);
  const edit = useCallback((channelId: number) => open(`/channel/edit/${channelId}`), [open]);
  const selectedIds = useMemo(
    () =>
      Object.entries(selection)
        .filter(([, selected]) => selected)
        .map(([rowId]) => Number(rowId)),
    [selection],
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('channels.title')}</Title>
        <Group gap="xs">
          <Tooltip label={t('channels.refresh')}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('channels.refresh')}
              loading={channels.isFetching}
              onClick={() => void channels.refetch()}
            >
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
          <Button leftSection={<IconPlus size={16} />} onClick={() => open('/channel/add')}>
            {t('channels.add')}
          </Button>
        </Group>
      </Group>
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
            onEdit={edit}
            pollStates={pollStates}
          />
        </Stack>
      </Paper>
      {(adding || editingId !== undefined) && (
        <ChannelDrawer key={editingId ?? 'add'} channelId={editingId} onClose={closePanel} />
      )}
    </Stack>
  );
}
