import { Badge, Group, Paper, Select, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { isAdmin, LogType } from '@tollgate/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/features/auth';
import { useQuotaFormatter } from '@/features/status';
import { logQueries, type LogFilters } from '../api/logs.api';
import { useLogsTableParams } from '../hooks/use-logs-table-params';
import { LogsFilterBar } from './logs-filter-bar';
import { LogsTable } from './logs-table';
import { UserInfoModal } from './user-info-modal';

const TYPE_OPTIONS = [
  { value: '', key: 'all' },
  { value: String(LogType.TopUp), key: 'topUp' },
  { value: String(LogType.Consume), key: 'consume' },
  { value: String(LogType.Manage), key: 'manage' },
  { value: String(LogType.System), key: 'system' },
] as const;

/** /log: summary badges (quota, RPM, TPM), filters, the type dropdown and the table. */
export function LogsPage() {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const role = useSessionUser()?.role;
  const admin = role !== undefined && isAdmin(role);
  const { params, update, paginate } = useLogsTableParams();
  const filters = useMemo<LogFilters>(() => {
    const { page: _page, pageSize: _pageSize, ...rest } = params;
    return rest;
  }, [params]);
  const logs = useQuery(logQueries.list(params, admin));
  const stat = useQuery(logQueries.stat(filters, admin));
  const [popupUser, setPopupUser] = useState<number | null>(null);

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={2}>{t('logs.title')}</Title>
        <Group gap="xs" data-testid="log-stat">
          <Badge size="lg" variant="light" color="blue">
            {t('logs.stat.quota', { value: formatQuota(stat.data?.quota ?? 0) })}
          </Badge>
          <Badge size="lg" variant="light" color="pink">
            {t('logs.stat.rpm', { value: stat.data?.rpm ?? 0 })}
          </Badge>
          <Badge size="lg" variant="light" color="gray">
            {t('logs.stat.tpm', { value: stat.data?.tpm ?? 0 })}
          </Badge>
        </Group>
      </Group>
      <Paper withBorder p="md" radius="md">
        <Stack>
          <LogsFilterBar
            params={params}
            admin={admin}
            onSearch={(next) => update({ page: 1, filters: next })}
            typeSelect={
              <Select
                label={t('logs.typeLabel')}
                data={TYPE_OPTIONS.map((option) => ({
                  value: option.value,
                  label: t(`logs.type.${option.key}`),
                }))}
                value={params.type}
                onChange={(value) => update({ page: 1, filters: { type: value ?? '' } })}
                allowDeselect={false}
              />
            }
          />
          <LogsTable
            rows={logs.data?.items}
            paging={{
              page: params.page,
              pageSize: params.pageSize,
              total: logs.data?.total ?? 0,
              onPaginationChange: paginate,
            }}
            loading={logs.isFetching}
            admin={admin}
            onUserClick={setPopupUser}
          />
        </Stack>
      </Paper>
      {admin && <UserInfoModal userId={popupUser} onClose={() => setPopupUser(null)} />}
    </Stack>
  );
}
