import {
  functionalUpdate,
  type Row,
  type RowSelectionState,
  type Updater,
} from '@tanstack/react-table';
import { ChannelStatus, type ChannelDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
  selectableFeatures,
  useServerTable,
  type ServerPaging,
} from '@/components/data-table';
import type { ChannelPollState } from '../api/channels.api';
import { useChannelPerformance } from '../hooks/use-channel-performance';
import { usePatchChannel } from '../hooks/use-channel-mutations';
import { channelColumns } from './channels-columns';

interface ChannelsTableProps {
  rows: ChannelDto[] | undefined;
  /** Without a total: the channel list API answers a bare array. */
  paging: Omit<ServerPaging, 'total'>;
  loading: boolean;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  onEdit: (id: number) => void;
  /** The task poller's state by channel id (Midjourney / Suno channels), if asked. */
  pollStates?: ReadonlyMap<number, ChannelPollState>;
}

export function ChannelsTable({
  rows,
  paging,
  loading,
  selection,
  onSelectionChange,
  onEdit,
  pollStates,
}: ChannelsTableProps) {
  const { t } = useTranslation();
  const patchChannel = usePatchChannel().mutate;
  const performance = useChannelPerformance();
  const columns = useMemo(
    () => channelColumns({ t, patchChannel, onEdit, pollStates, performance }),
    [t, patchChannel, onEdit, pollStates, performance],
  );

  const table = useServerTable({
    features: selectableFeatures,
    columns,
    data: rows,
    enableRowRangeSelection: false,
    state: { rowSelection: selection },
    onRowSelectionChange: (updater: Updater<RowSelectionState>) =>
      onSelectionChange(functionalUpdate(updater, selection)),
  });

  return (
    <DataTable
      table={table}
      paging={paging}
      summary={t('channels.page', { page: paging.page })}
      loading={loading}
      minWidth={960}
      testId="channels-table"
      striped
      rowProps={channelRowProps}
    />
  );
}

/** A disabled channel's row is greyed. */
function channelRowProps(row: Row<typeof selectableFeatures, ChannelDto>) {
  const disabled = row.original.status !== ChannelStatus.Enabled;
  return {
    'data-testid': `channel-row-${row.original.id}`,
    'data-disabled': disabled || undefined,
    style: disabled
      ? {
          backgroundColor: 'var(--mantine-color-gray-light)',
          color: 'var(--mantine-color-dimmed)',
        }
      : undefined,
  };
}
