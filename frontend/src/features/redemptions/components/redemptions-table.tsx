import { Button, Group, Stack } from '@mantine/core';
import { IconCopy, IconPlus } from '@tabler/icons-react';
import {
  createColumnHelper,
  rowPaginationFeature,
  rowSelectionFeature,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { RedemptionStatus, type RedemptionDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DataTableView,
  SelectAllCheckbox,
  SelectRowCheckbox,
  urlPagination,
} from '@/components/data-table';
import { TablePager } from '@/components/table-pager';
import { useQuotaFormatter } from '@/features/status';
import { useCopy } from '@/hooks/use-copy';
import { notifyError } from '@/lib/notify';
import { formatDateTime } from '@/utils/date-time';
import { RedemptionActions } from './redemption-actions';
import { RedemptionStatusTag } from './redemption-status-tag';

const features = tableFeatures({ rowPaginationFeature, rowSelectionFeature });
const column = createColumnHelper<typeof features, RedemptionDto>();
const EMPTY: RedemptionDto[] = [];

interface RedemptionsTableProps {
  rows: RedemptionDto[] | undefined;
  total: number;
  /** 1-based, as in the URL and the API. */
  page: number;
  pageSize: number;
  loading: boolean;
  onPaginationChange: (next: { page: number; pageSize: number }) => void;
  onAdd: () => void;
  onEdit: (redemption: RedemptionDto) => void;
}

export function RedemptionsTable({
  rows,
  total,
  page,
  pageSize,
  loading,
  onPaginationChange,
  onAdd,
  onEdit,
}: RedemptionsTableProps) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const copy = useCopy();
  const data = rows ?? EMPTY;

  const columns = useMemo(
    () =>
      column.columns([
        column.display({
          id: 'select',
          header: ({ table }) => (
            <SelectAllCheckbox label={t('redemptions.selectAll')} table={table} />
          ),
          cell: ({ row }) => (
            <SelectRowCheckbox
              label={t('redemptions.selectRow', { name: row.original.name })}
              row={row}
            />
          ),
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

  const paging = urlPagination(page, pageSize, onPaginationChange);
  const table = useTable({
    features,
    columns,
    data,
    rowCount: total,
    manualPagination: true,
    getRowId: (row) => String(row.id),
    state: { pagination: paging.pagination },
    onPaginationChange: paging.onPaginationChange,
  });
  const pageCount = Math.max(1, table.getPageCount());

  const copySelected = () => {
    const selected = table.getSelectedRowModel().rows.map((row) => row.original);
    if (selected.length === 0) return notifyError(t('redemptions.selectAtLeastOne'));
    void copy(selected.map((code) => `${code.name}    ${code.key}`).join('\n'));
  };

  return (
    <Stack>
      <Group gap="sm">
        <Button leftSection={<IconPlus size={16} />} onClick={onAdd}>
          {t('redemptions.add')}
        </Button>
        <Button variant="light" leftSection={<IconCopy size={16} />} onClick={copySelected}>
          {t('redemptions.copySelected')}
        </Button>
      </Group>
      <DataTableView
        table={table}
        columnCount={columns.length}
        loading={loading}
        minWidth={900}
        testId="redemptions-table"
        striped
        rowProps={(row) => ({
          'data-testid': `redemption-row-${row.original.id}`,
          c: row.original.status === RedemptionStatus.Unused ? undefined : 'dimmed',
        })}
      />
      <TablePager
        total={total}
        page={page}
        pageCount={pageCount}
        pageSize={pageSize}
        onPageChange={(value) => table.setPageIndex(value - 1)}
        onPageSizeChange={(size) => table.setPageSize(size)}
      />
    </Stack>
  );
}
