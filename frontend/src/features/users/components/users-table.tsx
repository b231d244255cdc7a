import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import {
  createColumnHelper,
  rowPaginationFeature,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { type UserDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTableView, urlPagination } from '@/components/data-table';
import { TablePager } from '@/components/table-pager';
import { useQuotaFormatter } from '@/features/status';
import { RoleTag } from './role-tag';
import { StatusTag } from './status-tag';
import { UserActions } from './user-actions';

const features = tableFeatures({ rowPaginationFeature });
const column = createColumnHelper<typeof features, UserDto>();
const EMPTY: UserDto[] = [];

interface UsersTableProps {
  rows: UserDto[] | undefined;
  total: number;
  /** 1-based, as in the URL and the API. */
  page: number;
  pageSize: number;
  loading: boolean;
  onPaginationChange: (next: { page: number; pageSize: number }) => void;
}

/** Server-paged: the table holds no rows of its own, paging state comes from the URL. */
export function UsersTable({
  rows,
  total,
  page,
  pageSize,
  loading,
  onPaginationChange,
}: UsersTableProps) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();

  const columns = useMemo(
    () =>
      column.columns([
        column.accessor('id', { header: t('users.columns.id') }),
        column.accessor('username', {
          header: t('users.columns.username'),
          cell: ({ row }) => (
            <Tooltip label={row.original.remark} disabled={!row.original.remark}>
              <Stack gap={0}>
                <Text size="sm" fw={500}>
                  {row.original.username}
                </Text>
                {row.original.display_name &&
                  row.original.display_name !== row.original.username && (
                    <Text size="xs" c="dimmed">
                      {row.original.display_name}
                    </Text>
                  )}
              </Stack>
            </Tooltip>
          ),
        }),
        column.accessor('group', {
          header: t('users.columns.group'),
          cell: ({ getValue }) => <Badge variant="outline">{getValue() || 'default'}</Badge>,
        }),
        column.display({
          id: 'stats',
          header: t('users.columns.stats'),
          cell: ({ row }) => (
            <Group gap={4} wrap="nowrap">
              <Tooltip label={t('users.remainingQuota')}>
                <Badge color="blue" variant="light">
                  {formatQuota(row.original.quota)}
                </Badge>
              </Tooltip>
              <Tooltip label={t('users.usedQuota')}>
                <Badge color="gray" variant="light">
                  {formatQuota(row.original.used_quota)}
                </Badge>
              </Tooltip>
              <Tooltip label={t('users.requestCount')}>
                <Badge color="cyan" variant="light">
                  {row.original.request_count}
                </Badge>
              </Tooltip>
            </Group>
          ),
        }),
        column.accessor('role', {
          header: t('users.columns.role'),
          cell: ({ getValue }) => <RoleTag role={getValue()} />,
        }),
        column.accessor('status', {
          header: t('users.columns.status'),
          cell: ({ row }) => <StatusTag user={row.original} />,
        }),
        column.display({
          id: 'actions',
          header: t('users.columns.actions'),
          cell: ({ row }) => <UserActions user={row.original} />,
        }),
      ]),
    [t, formatQuota],
  );

  const paging = urlPagination(page, pageSize, onPaginationChange);
  const table = useTable({
    features,
    columns,
    data: rows ?? EMPTY,
    rowCount: total,
    manualPagination: true,
    getRowId: (row) => String(row.id),
    state: { pagination: paging.pagination },
    onPaginationChange: paging.onPaginationChange,
  });
  const pageCount = Math.max(1, table.getPageCount());

  return (
    <Stack>
      <DataTableView
        table={table}
        columnCount={columns.length}
        loading={loading}
        minWidth={860}
        testId="users-table"
        striped
        rowProps={(row) => ({ 'data-testid': `user-row-${row.original.username}` })}
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
