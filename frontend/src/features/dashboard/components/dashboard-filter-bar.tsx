import { Button, SimpleGrid, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useDraft } from '@/hooks/use-draft';
import { notifyError } from '@/lib/notify';
import { formatDateTime, parseDateTime } from '@/utils/date-time';
import type { DashboardFilters } from '../api/dashboard.api';

interface Draft {
  start: string;
  end: string;
  username: string;
}

const toDraft = (filters: DashboardFilters): Draft => ({
  start: formatDateTime(filters.start_timestamp),
  end: formatDateTime(filters.end_timestamp),
  username: filters.username,
});

interface DashboardFilterBarProps {
  filters: DashboardFilters;
  /** The username filter is the admin's (GET /api/data/?username=). */
  admin: boolean;
  onSearch: (filters: DashboardFilters) => void;
}

/** Start and end (local `YYYY-MM-DD HH:mm:ss`, as the log page), and the admin's username. */
export function DashboardFilterBar({ filters, admin, onSearch }: DashboardFilterBarProps) {
  const { t } = useTranslation();
  const { draft, bind } = useDraft(filters, toDraft);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const start = parseDateTime(draft.start);
    const end = parseDateTime(draft.end);
    if (start === null || end === null) return notifyError(t('dashboard.badTime'));
    onSearch({
      start_timestamp: start,
      end_timestamp: end,
      username: admin ? draft.username.trim() : '',
    });
  };

  return (
    <form onSubmit={submit} data-testid="dashboard-filters">
      <SimpleGrid cols={{ base: 1, sm: 2, md: admin ? 4 : 3 }} style={{ alignItems: 'end' }}>
        <TextInput
          label={t('dashboard.filters.start')}
          placeholder={t('dashboard.filters.timePlaceholder')}
          {...bind('start')}
        />
        <TextInput
          label={t('dashboard.filters.end')}
          placeholder={t('dashboard.filters.timePlaceholder')}
          {...bind('end')}
        />
        {admin && (
          <TextInput
            label={t('dashboard.filters.username')}
            placeholder={t('dashboard.filters.usernamePlaceholder')}
            {...bind('username')}
          />
        )}
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {t('common.search')}
        </Button>
      </SimpleGrid>
    </form>
  );
}
