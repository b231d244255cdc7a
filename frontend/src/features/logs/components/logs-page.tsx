import { Badge, Button, Group, Paper, Select, Stack, Switch, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { isAdmin, LogType } from '@tollgate/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/features/auth';
import { useQuotaFormatter } from '@/features/status';
import { logQueries, type LogFilters } from '../api/logs.api';
import { useLiveLogs } from '../hooks/use-live-logs';
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
  const { params, update, paginate: paginateTo } = useLogsTableParams();
  const filters = useMemo<LogFilters>(() => {
    const { page: _page, pageSize: _pageSize, ...rest } = params;
    return rest;
  }, [params]);
  const logs = useQuery(logQueries.list(params, admin));
  const stat = useQuery(logQueries.stat(filters, admin));
  const [popupUser, setPopupUser] = useState<number | null>(null);
  const { live, setLive, unseen, catchUp } = useLiveLogs();

  // Following new rows means page 1 of an open-ended range; reading further pages stops it.
  const toggleLive = (next: boolean) => {
    setLive(next);
    if (next && (params.page !== 1 || params.end_timestamp !== undefined))
      update({ page: 1, filters: { end: '' } });
  };
  const paginate = (next: { page: number; pageSize: number }) => {
    if (live && next.page !== 1) setLive(false);
    paginateTo(next);
  };

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={2}>{t('logs.title')}</Title>
        <Group gap="md">
          <Group gap="xs">
            {unseen && !live && (
              <Button size="compact-sm" variant="light" onClick={catchUp} data-testid="logs-unseen">
                {t('logs.live.unseen')}
              </Button>
            )}
            <Switch
              label={t('logs.live.toggle')}
              checked={live}
              onChange={(event) => toggleLive(event.currentTarget.checked)}
              data-testid="logs-live"
            />
          </Group>
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
