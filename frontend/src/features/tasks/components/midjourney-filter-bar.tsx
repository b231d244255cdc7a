import { Button, SimpleGrid, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useDraft } from '@/hooks/use-draft';
import { notifyError } from '@/lib/notify';
import { formatDateTime, nowSeconds, parseDateTime } from '@/utils/date-time';
import type { MidjourneyListParams } from '../api/tasks.api';
import type { MidjourneyFilterName } from '../hooks/use-tasks-table-params';

interface Draft {
  channel_id: string;
  mj_id: string;
  start: string;
  end: string;
}

const toDraft = (params: MidjourneyListParams): Draft => ({
  channel_id: params.channel_id,
  mj_id: params.mj_id,
  start: formatDateTime(params.start_timestamp),
  end: formatDateTime(params.end_timestamp ?? nowSeconds() + 3600),
});

interface MidjourneyFilterBarProps {
  params: MidjourneyListParams;
  /** The channel filter is admin-only. */
  admin: boolean;
  onSearch: (filters: Partial<Record<MidjourneyFilterName, string>>) => void;
}

export function MidjourneyFilterBar({ params, admin, onSearch }: MidjourneyFilterBarProps) {
  const { t } = useTranslation();
  const { draft, bind } = useDraft(params, toDraft);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const start = parseDateTime(draft.start);
    const end = parseDateTime(draft.end);
    if (start === null || end === null) return notifyError(t('tasks.badTime'));
    onSearch({
      mj_id: draft.mj_id.trim(),
      start: String(start),
      end: String(end),
      ...(admin ? { channel_id: draft.channel_id.trim() } : {}),
    });
  };

  return (
    <form onSubmit={submit}>
      <SimpleGrid cols={{ base: 1, sm: 2, md: admin ? 5 : 4 }} style={{ alignItems: 'end' }}>
        {admin && <TextInput label={t('tasks.filters.channel')} {...bind('channel_id')} />}
        <TextInput label={t('tasks.filters.mjId')} {...bind('mj_id')} />
        <TextInput
          label={t('tasks.filters.start')}
          placeholder={t('tasks.filters.timePlaceholder')}
          {...bind('start')}
        />
        <TextInput
          label={t('tasks.filters.end')}
          placeholder={t('tasks.filters.timePlaceholder')}
          {...bind('end')}
        />
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {t('common.search')}
        </Button>
      </SimpleGrid>
    </form>
  );
}
