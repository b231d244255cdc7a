import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { UserDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { plainFeatures } from '@/components/data-table';
import { QuotaBalance, useQuotaFormatter } from '@/features/status';
import { RoleTag } from './role-tag';
import { StatusTag } from './status-tag';
import { UserActions } from './user-actions';

const column = createColumnHelper<typeof plainFeatures, UserDto>();

/** The username, the display name under it when it differs, the remark as a tooltip. */
function UserNameCell({ user }: { user: UserDto }) {
  return (
    <Tooltip label={user.remark} disabled={!user.remark}>
      <Stack gap={0}>
        <Text size="sm" fw={500}>
          {user.username}
        </Text>
        {user.display_name && user.display_name !== user.username && (
          <Text size="xs" c="dimmed">
            {user.display_name}
          </Text>
        )}
      </Stack>
    </Tooltip>
  );
}

/** Remaining quota, used quota and request count as badges. */
function UserStatsCell({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={t('users.remainingQuota')}>
        <Group gap={0} wrap="nowrap">
          <QuotaBalance quota={user.quota} badgeColor="blue" />
        </Group>
      </Tooltip>
      <Tooltip label={t('users.usedQuota')}>
        <Badge color="gray" variant="light">
          {formatQuota(user.used_quota)}
        </Badge>
      </Tooltip>
      <Tooltip label={t('users.requestCount')}>
        <Badge color="cyan" variant="light">
          {user.request_count}
        </Badge>
      </Tooltip>
    </Group>
  );
}

/** The user table's columns, made again only when the language or the quota display changes. */
export function useUserColumns() {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  return useMemo(
    () =>
      column.columns([
        column.accessor('id', { header: t('users.columns.id') }),
        column.accessor('username', {
          header: t('users.columns.username'),
          cell: ({ row }) => <UserNameCell user={row.original} />,
        }),
        column.accessor('group', {
          header: t('users.columns.group'),
          cell: ({ getValue }) => <Badge variant="outline">{getValue() || 'default'}</Badge>,
        }),
        column.display({
          id: 'stats',
          header: t('users.columns.stats'),
          cell: ({ row }) => <UserStatsCell user={row.original} />,
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
    // The stats cell formats with the current display: the columns follow its changes.
    [t, formatQuota],
  );
}
