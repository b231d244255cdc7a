import { Button, Group, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/lib/notify';
import { nowSeconds, startOfDay } from '@/utils/date-time';
import { HISTORY_PAGE_SIZE, historyQueries } from '../api/history.api';
import { DateTimeInput, fromInputValue, toInputValue } from './date-time-input';
import { HistoryPageView } from './history-list';

const DAY = 86_400;

interface Range {
  start?: number;
  end?: number;
}

/** Who-did-what: every change one admin made in a time range (the last 30 days at first). */
export function ActorHistory({ actorId }: { actorId: number }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(() => ({
    start: toInputValue(startOfDay(nowSeconds() - 30 * DAY)),
    end: '',
  }));
  const [range, setRange] = useState<Range>(() => ({ start: fromInputValue(draft.start) ?? 0 }));
  const [page, setPage] = useState(1);
  const query = useQuery({
    ...historyQueries.byActor({ actorId, ...range, page, pageSize: HISTORY_PAGE_SIZE }),
    meta: { silent: true },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const start = fromInputValue(draft.start);
    const end = fromInputValue(draft.end);
    if ((draft.start && start === null) || (draft.end && end === null))
      return notifyError(t('history.balanceAt.badTime'));
    setRange({ start: start ?? undefined, end: end ?? undefined });
    setPage(1);
  };

  return (
    <Stack>
      <form onSubmit={submit}>
        <Group align="end" wrap="wrap">
          <DateTimeInput
            label={t('history.byActor.start')}
            value={draft.start}
            onChange={(start) => setDraft((current) => ({ ...current, start }))}
            testId="actor-history-start"
          />
          <DateTimeInput
            label={t('history.byActor.end')}
            value={draft.end}
            onChange={(end) => setDraft((current) => ({ ...current, end }))}
            testId="actor-history-end"
          />
          <Button type="submit" loading={query.isFetching}>
            {t('history.byActor.search')}
          </Button>
        </Group>
      </form>
      <HistoryPageView
        showEntity
        data={query.data}
        loading={query.isFetching}
        error={query.error ? query.error.message : null}
        page={page}
        onPage={setPage}
      />
    </Stack>
  );
}
