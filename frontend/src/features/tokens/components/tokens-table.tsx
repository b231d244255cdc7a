import { Button, Group, Stack, Text } from '@mantine/core';
import { IconCopy, IconPlus } from '@tabler/icons-react';
import {
  createColumnHelper,
  rowPaginationFeature,
  rowSelectionFeature,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { TOKEN_NEVER_EXPIRES, TokenStatus, type TokenDto } from '@tollgate/contracts';
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
import { TokenActions } from './token-actions';
import { TokenStatusTag } from './token-status-tag';

const features = tableFeatures({ rowPaginationFeature, rowSelectionFeature });
const column = createColumnHelper<typeof features, TokenDto>();
const EMPTY: TokenDto[] = [];

interface TokensTableProps {
  rows: TokenDto[] | undefined;
  /** 1-based, as in the URL. */
  page: number;
  pageSize: number;
  loading: boolean;
  onPaginationChange: (next: { page: number; pageSize: number }) => void;
  onAdd: () => void;
  onEdit: (token: TokenDto) => void;
}

/**
 * The token list is a bare array without a total (spec 001 §7): a full page means there may be a
 * next one, so the pager offers one page more than it has seen.
 */
export function TokensTable({
  rows,
  page,
  pageSize,
  loading,
  onPaginationChange,
  onAdd,
  onEdit,
}: TokensTableProps) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const copy = useCopy();
  const data = rows ?? EMPTY;

  const columns = useMemo(
    () =>
      column.columns([
        column.display({
          id: 'select',
          header: ({ table }) => <SelectAllCheckbox label={t('tokens.selectAll')} table={table} />,
          cell: ({ row }) => (
            <SelectRowCheckbox
              label={t('tokens.selectRow', { name: row.original.name })}
              row={row}
            />
          ),
        }),
        column.accessor('name', {
          header: t('tokens.columns.name'),
          cell: ({ getValue }) => (
            <Text size="sm" fw={500}>
              {getValue()}
            </Text>
          ),
        }),
        column.accessor('status', {
          header: t('tokens.columns.status'),
          cell: ({ row }) => <TokenStatusTag token={row.original} />,
        }),
        column.accessor('used_quota', {
          header: t('tokens.columns.used'),
          cell: ({ getValue }) => formatQuota(getValue()),
        }),
        column.accessor('remain_quota', {
          header: t('tokens.columns.remain'),
          cell: ({ row }) =>
            row.original.unlimited_quota
              ? t('tokens.unlimited')
              : formatQuota(row.original.remain_quota),
        }),
        column.accessor('created_time', {
          header: t('tokens.columns.created'),
          cell: ({ getValue }) => formatDateTime(getValue()),
        }),
        column.accessor('expired_time', {
          header: t('tokens.columns.expires'),
          cell: ({ getValue }) =>
            getValue() === TOKEN_NEVER_EXPIRES
              ? t('tokens.neverExpires')
              : formatDateTime(getValue()),
        }),
        column.display({
          id: 'actions',
          header: t('tokens.columns.actions'),
          cell: ({ row }) => <TokenActions token={row.original} onEdit={onEdit} />,
        }),
      ]),
    [t, formatQuota, onEdit],
  );

  const hasNext = data.length >= pageSize;
  const paging = urlPagination(page, pageSize, onPaginationChange);
  const table = useTable({
    features,
    columns,
    data,
    rowCount: (page - 1) * pageSize + data.length + (hasNext ? 1 : 0),
    manualPagination: true,
    getRowId: (row) => String(row.id),
    state: { pagination: paging.pagination },
    onPaginationChange: paging.onPaginationChange,
  });
  const pageCount = Math.max(1, table.getPageCount());

  const copySelected = () => {
    const selected = table.getSelectedRowModel().rows.map((row) => row.original);
    if (selected.length === 0) return notifyError(t('tokens.selectAtLeastOne'));
    void copy(selected.map((token) => `${token.name}    sk-${token.key}`).join('\n'));
  };

  return (
    <Stack>
      <Group gap="sm">
        <Button leftSection={<IconPlus size={16} />} onClick={onAdd}>
          {t('tokens.add')}
        </Button>
        <Button variant="light" leftSection={<IconCopy size={16} />} onClick={copySelected}>
          {t('tokens.copySelected')}
        </Button>
      </Group>
      <DataTableView
        table={table}
        columnCount={columns.length}
        loading={loading}
        minWidth={900}
        testId="tokens-table"
        rowProps={(row) => {
          const inactive = row.original.status !== TokenStatus.Enabled;
          return {
            'data-testid': `token-row-${row.original.name}`,
            'data-inactive': inactive || undefined,
            // Spec 001 §2: rows that are not enabled are greyed.
            bg: inactive ? 'var(--mantine-color-default-hover)' : undefined,
            c: inactive ? 'dimmed' : undefined,
          };
        }}
      />
      <TablePager
        page={page}
        pageCount={pageCount}
        pageSize={pageSize}
        onPageChange={(value) => table.setPageIndex(value - 1)}
        onPageSizeChange={(size) => table.setPageSize(size)}
      />
    </Stack>
  );
}
