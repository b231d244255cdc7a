import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { historyQueries, type HistorySubject } from '../api/history.api';
import { HistoryPageView } from './history-list';

/** The changes of one user, token, channel, code or of the options, a page at a time. */
export function SubjectHistory({ subject }: { subject: HistorySubject }) {
  const [page, setPage] = useState(1);
  const query = useQuery({ ...historyQueries.list(subject, page), meta: { silent: true } });
  return (
    <HistoryPageView
      data={query.data}
      loading={query.isFetching}
      error={query.error ? query.error.message : null}
      page={page}
      onPage={setPage}
    />
  );
}
