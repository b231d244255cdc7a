import { Button, SimpleGrid, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDraft } from '@/hooks/use-draft';
import { notifyError } from '@/lib/notify';
import type { LogListParams } from '../api/logs.api';
import type { LogFilterName } from '../hooks/use-logs-table-params';
import { parseTimeRange, timeRangeDraft } from '../utils/time-range';
import { TimeRangeInputs } from './time-range-inputs';

interface Draft {
  token_name: string;
  model_name: string;
  start: string;
  end: string;
  username: string;
  channel: string;
}

const toDraft = (params: LogListParams): Draft => ({
  token_name: params.token_name,
  model_name: params.model_name,
  ...timeRangeDraft(params),
  username: params.username,
  channel: params.channel,
});

interface LogsFilterBarProps {
  params: LogListParams;
  /** Channel and username filters are admin-only. */
  admin: boolean;
  onSearch: (filters: Partial<Record<LogFilterName, string>>) => void;
  /** The type dropdown, laid out with the fields (it applies at once, without the button). */
  typeSelect: ReactNode;
}

export function LogsFilterBar({ params, admin, onSearch, typeSelect }: LogsFilterBarProps) {
  const { t } = useTranslation();
  const { draft, bind } = useDraft(params, toDraft);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const range = parseTimeRange(draft);
    if (range === null) return notifyError(t('logs.badTime'));
    onSearch({
      token_name: draft.token_name.trim(),
      model_name: draft.model_name.trim(),
      ...range,
      ...(admin ? { username: draft.username.trim(), channel: draft.channel.trim() } : {}),
    });
  };

  return (
    <form onSubmit={submit}>
      <SimpleGrid cols={{ base: 1, sm: 2, md: admin ? 4 : 3 }} style={{ alignItems: 'end' }}>
        <TextInput label={t('logs.filters.tokenName')} {...bind('token_name')} />
        <TextInput label={t('logs.filters.modelName')} {...bind('model_name')} />
        <TimeRangeInputs
          bind={bind}
          labels={{
            start: t('logs.filters.start'),
            end: t('logs.filters.end'),
            placeholder: t('logs.filters.timePlaceholder'),
          }}
        />
        {admin && <TextInput label={t('logs.filters.channel')} {...bind('channel')} />}
        {admin && <TextInput label={t('logs.filters.username')} {...bind('username')} />}
        {typeSelect}
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {t('common.search')}
        </Button>
      </SimpleGrid>
    </form>
  );
}
