import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { type UserDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
  plainFeatures,
  useServerTable,
  type ServerPaging,
} from '@/components/data-table';
import { QuotaBalance, useQuotaFormatter } from '@/features/status';
import { RoleTag } from './role-tag';
import { StatusTag } from './status-tag';
import { UserActions } from './user-actions';

const column = createColumnHelper<typeof plainFeatures, UserDto>();

interface UsersTableProps {
  rows: UserDto[] | undefined;
  paging: ServerPaging;
  loading: boolean;
}

/** Server-paged: the table holds no rows of its own, paging state comes from the URL. */
export function UsersTable({ rows, paging, loading }: UsersTableProps) {
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
                <Group gap={0} wrap="nowrap">
                  <QuotaBalance quota={row.original.quota} badgeColor="blue" />
                </Group>
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

  const table = useServerTable({ features: plainFeatures, columns, data: rows });

  return (
    <DataTable
      table={table}
      paging={paging}
      loading={loading}
      minWidth={860}
      testId="users-table"
      striped
      rowProps={(row) => ({ 'data-testid': `user-row-${row.original.username}` })}
    />
  );
}
