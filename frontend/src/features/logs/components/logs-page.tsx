import { Paper, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { isAdmin, LogType } from '@tollgate/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/features/auth';
import { formatDateTime } from '@/utils/date-time';
import { logQueries, type LogFilters } from '../api/logs.api';
import { useLiveLogs } from '../hooks/use-live-logs';
import { useLogsTableParams } from '../hooks/use-logs-table-params';
import { LogsFilterBar } from './logs-filter-bar';
import { LogsPageHeader } from './logs-page-header';
import { LogsTable } from './logs-table';
import { UserInfoModal } from './user-info-modal';

const TYPE_OPTIONS = [
  { value: '', key: 'all' },
  { value: String(LogType.TopUp), key: 'topUp' },
  { value: String(LogType.Consume), key: 'consume' },
  { value: String(LogType.Manage), key: 'manage' },
  { value: String(LogType.System), key: 'system' },
  { value: String(LogType.Error), key: 'error' },
] as const;

/** /log: summary badges (quota, RPM, TPM), filters, the type dropdown and the table. */
export function LogsPage() {
  const role = useSessionUser()?.role;
  const admin = role !== undefined && isAdmin(role);
  const { params, update, paginate: paginateTo } = useLogsTableParams();
  const filters = useMemo<LogFilters>(() => {
    const { page: _page, pageSize: _pageSize, ...rest } = params;
    return rest;
  }, [params]);
  const logs = useQuery(logQueries.list(params, admin));
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
      <LogsPageHeader
        filters={filters}
        admin={admin}
        live={live}
        onLiveChange={toggleLive}
        unseen={unseen}
        onCatchUp={catchUp}
      />
      <Paper withBorder p="md" radius="md">
        <Stack>
          <LogsFilterBar
            params={params}
            admin={admin}
            onSearch={(next) => update({ page: 1, filters: next })}
            typeSelect={
              <LogTypeSelect
                value={params.type}
                onChange={(type) => update({ page: 1, filters: { type } })}
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
          <RetainedFrom at={logs.data?.retained_from} />
        </Stack>
      </Paper>
      {admin && <UserInfoModal userId={popupUser} onClose={() => setPopupUser(null)} />}
    </Stack>
  );
}

/** Where the log begins when older calls were archived (retention); nothing otherwise. */
function RetainedFrom({ at }: { at: number | undefined }) {
  const { t } = useTranslation();
  if (at === undefined) return null;
  return (
    <Text size="sm" c="dimmed">
      {t('logs.retainedFrom', { date: formatDateTime(at) })}
    </Text>
  );
}

/** Which kind of log rows to list: all, top-ups, consumption, management or system. */
function LogTypeSelect({ value, onChange }: { value: string; onChange: (type: string) => void }) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('logs.typeLabel')}
      data={TYPE_OPTIONS.map((option) => ({
        value: option.value,
        label: t(`logs.type.${option.key}`),
      }))}
      value={value}
      onChange={(next) => onChange(next ?? '')}
      allowDeselect={false}
    />
  );
}
