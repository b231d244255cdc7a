import { createColumnHelper } from '@tanstack/react-table';
import { RedemptionStatus, type RedemptionDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AddCopyToolbar } from '@/components/add-copy-toolbar';
import {
  DataTable,
  selectableFeatures,
  selectColumn,
  useServerTable,
  type ServerPaging,
} from '@/components/data-table';
import { useQuotaFormatter } from '@/features/status';
import { formatDateTime } from '@/utils/date-time';
import { RedemptionActions } from './redemption-actions';
import { RedemptionStatusTag } from './redemption-status-tag';

const column = createColumnHelper<typeof selectableFeatures, RedemptionDto>();

interface RedemptionsTableProps {
  rows: RedemptionDto[] | undefined;
  paging: ServerPaging;
  loading: boolean;
  onAdd: () => void;
  onEdit: (redemption: RedemptionDto) => void;
}

export function RedemptionsTable({ rows, paging, loading, onAdd, onEdit }: RedemptionsTableProps) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();

  const columns = useMemo(
    () =>
      column.columns([
        selectColumn(column, {
          all: t('common.selectAll'),
          row: (code) => t('redemptions.selectRow', { name: code.name }),
        }),
        column.accessor('id', { header: t('redemptions.columns.id') }),
        column.accessor('name', { header: t('redemptions.columns.name') }),
        column.accessor('status', {
          header: t('redemptions.columns.status'),
          cell: ({ getValue }) => <RedemptionStatusTag status={getValue()} />,
        }),
        column.accessor('quota', {
          header: t('redemptions.columns.quota'),
          cell: ({ getValue }) => formatQuota(getValue()),
        }),
        column.accessor('created_time', {
          header: t('redemptions.columns.created'),
          cell: ({ getValue }) => formatDateTime(getValue()),
        }),
        column.accessor('redeemed_time', {
          header: t('redemptions.columns.redeemed'),
          cell: ({ getValue }) =>
            getValue() ? formatDateTime(getValue()) : t('redemptions.notRedeemed'),
        }),
        column.accessor('used_user_id', {
          header: t('redemptions.columns.usedBy'),
          cell: ({ getValue }) => getValue() || t('redemptions.nobody'),
        }),
        column.display({
          id: 'actions',
          header: t('redemptions.columns.actions'),
          cell: ({ row }) => <RedemptionActions redemption={row.original} onEdit={onEdit} />,
        }),
      ]),
    [t, formatQuota, onEdit],
  );

  const table = useServerTable({ features: selectableFeatures, columns, data: rows });

  return (
    <DataTable
      table={table}
      paging={paging}
      loading={loading}
      minWidth={900}
      testId="redemptions-table"
      striped
      toolbar={
        <AddCopyToolbar
          addLabel={t('redemptions.add')}
          onAdd={onAdd}
          copyLabel={t('redemptions.copySelected')}
          noneSelected={t('redemptions.selectAtLeastOne')}
          selected={() => table.getSelectedRowModel().rows.map((row) => row.original)}
          line={(code) => `${code.name}    ${code.key}`}
        />
      }
      rowProps={(row) => ({
        'data-testid': `redemption-row-${row.original.id}`,
        c: row.original.status === RedemptionStatus.Unused ? undefined : 'dimmed',
      })}
    />
  );
}
