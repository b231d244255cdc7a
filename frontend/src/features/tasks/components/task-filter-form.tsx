import { Button, SimpleGrid, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useCallback, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { parseTimeRange, timeRangeDraft, TimeRangeInputs } from '@/features/logs';
import { useDraft } from '@/hooks/use-draft';
import { notifyError } from '@/lib/notify';

/** The list parameters every task filter form edits; `I` names the task's id filter. */
type TaskFilterParams<I extends string> = Record<I, string> & {
  channel_id: string;
  start_timestamp: number;
  end_timestamp?: number;
};

/** What a search applies, as URL filters; the channel only for admins. */
type TaskTextFilters<I extends string> = Record<I | 'start' | 'end', string> & {
  channel_id?: string;
};

interface TaskFilterFormProps<I extends string> {
  params: TaskFilterParams<I>;
  /** `mj_id` for drawings, `task_id` for tasks. */
  idName: I;
  idLabel: string;
  /** The channel filter is admin-only. */
  admin: boolean;
  /** Grid columns from the md breakpoint up. */
  columns: number;
  onSearch: (filters: TaskTextFilters<I>) => void;
  /** Fields after the time range that apply at once, without the button. */
  children?: ReactNode;
}

/** The skeleton of both task logs' filter bars: channel, task id and time range, then 查询. */
export function TaskFilterForm<I extends string>({
  params,
  idName,
  idLabel,
  admin,
  columns,
  onSearch,
  children,
}: TaskFilterFormProps<I>) {
  const { t } = useTranslation();
  // Stable as long as idName is, so the draft is copied again only when params change.
  const toDraft = useCallback(
    (source: TaskFilterParams<I>) => ({
      channel_id: source.channel_id,
      id: source[idName],
      ...timeRangeDraft(source),
    }),
    [idName],
  );
  const { draft, bind } = useDraft(params, toDraft);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const range = parseTimeRange(draft);
    if (range === null) return notifyError(t('tasks.badTime'));
    onSearch({
      [idName]: draft.id.trim(),
      ...range,
      ...(admin ? { channel_id: draft.channel_id.trim() } : {}),
    } as TaskTextFilters<I>);
  };

  return (
    <form onSubmit={submit}>
      <SimpleGrid cols={{ base: 1, sm: 2, md: columns }} style={{ alignItems: 'end' }}>
        {admin && <TextInput label={t('tasks.filters.channel')} {...bind('channel_id')} />}
        <TextInput label={idLabel} {...bind('id')} />
        <TimeRangeInputs
          bind={bind}
          labels={{
            start: t('tasks.filters.start'),
            end: t('tasks.filters.end'),
            placeholder: t('tasks.filters.timePlaceholder'),
          }}
        />
        {children}
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {t('common.search')}
        </Button>
      </SimpleGrid>
    </form>
  );
}
