import { Button, Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import { IconCopy, IconPlus } from '@tabler/icons-react';
import {
  createColumnHelper,
  functionalUpdate,
  rowPaginationFeature,
  rowSelectionFeature,
  tableFeatures,
  useTable,
  type PaginationState,
  type Updater,
} from '@tanstack/react-table';
import { TOKEN_NEVER_EXPIRES, TokenStatus, type TokenDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
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
          header: ({ table }) => (
            <Checkbox
              aria-label={t('tokens.selectAll')}
              checked={table.getIsAllRowsSelected()}
              indeterminate={table.getIsSomeRowsSelected()}
              onChange={table.getToggleAllRowsSelectedHandler()}
            />
          ),
          cell: ({ row }) => (
            <Checkbox
              aria-label={t('tokens.selectRow', { name: row.original.name })}
              checked={row.getIsSelected()}
              onChange={row.getToggleSelectedHandler()}
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
  const pagination: PaginationState = { pageIndex: page - 1, pageSize };
  const table = useTable({
    features,
    columns,
    data,
    rowCount: (page - 1) * pageSize + data.length + (hasNext ? 1 : 0),
    manualPagination: true,
    getRowId: (row) => String(row.id),
    state: { pagination },
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = functionalUpdate(updater, pagination);
      onPaginationChange({ page: next.pageIndex + 1, pageSize: next.pageSize });
    },
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
      <Table.ScrollContainer minWidth={900}>
        <Table highlightOnHover verticalSpacing="xs" data-testid="tokens-table">
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => (
                  <Table.Th key={header.id}>
                    <table.FlexRender header={header} />
                  </Table.Th>
                ))}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => {
              const inactive = row.original.status !== TokenStatus.Enabled;
              return (
                <Table.Tr
                  key={row.id}
                  data-testid={`token-row-${row.original.name}`}
                  data-inactive={inactive || undefined}
                  // Spec 001 §2: rows that are not enabled are greyed.
                  bg={inactive ? 'var(--mantine-color-default-hover)' : undefined}
                  c={inactive ? 'dimmed' : undefined}
                >
                  {row.getAllCells().map((cell) => (
                    <Table.Td key={cell.id}>
                      <table.FlexRender cell={cell} />
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
            {!loading && data.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <Text c="dimmed" ta="center" py="md">
                    {t('common.noData')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
