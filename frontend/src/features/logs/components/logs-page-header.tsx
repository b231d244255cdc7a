import { Badge, Button, Group, Switch, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '@/features/status';
import { logQueries, type LogFilters } from '../api/logs.api';

interface LogsPageHeaderProps {
  filters: LogFilters;
  admin: boolean;
  live: boolean;
  onLiveChange: (next: boolean) => void;
  /** New rows arrived while not following them. */
  unseen: boolean;
  onCatchUp: () => void;
}

/** The title, the live switch (with "new rows" when not following) and the summary badges. */
export function LogsPageHeader({
  filters,
  admin,
  live,
  onLiveChange,
  unseen,
  onCatchUp,
}: LogsPageHeaderProps) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" align="center">
      <Title order={2}>{t('logs.title')}</Title>
      <Group gap="md">
        <Group gap="xs">
          {unseen && !live && (
            <Button size="compact-sm" variant="light" onClick={onCatchUp} data-testid="logs-unseen">
              {t('logs.live.unseen')}
            </Button>
          )}
          <Switch
            label={t('logs.live.toggle')}
            checked={live}
            onChange={(event) => onLiveChange(event.currentTarget.checked)}
            data-testid="logs-live"
          />
        </Group>
        <LogStatBadges filters={filters} admin={admin} />
      </Group>
    </Group>
  );
}

/** Quota used, requests and tokens per minute over the filtered logs. */
function LogStatBadges({ filters, admin }: { filters: LogFilters; admin: boolean }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const stat = useQuery(logQueries.stat(filters, admin));
  return (
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
  );
}
