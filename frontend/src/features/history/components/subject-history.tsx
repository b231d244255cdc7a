import { useQuery } from '@tanstack/react-query';
import type { ChangeTopic } from '@tollgate/contracts';
import { useState } from 'react';
import { useChangeTopic } from '@/hooks/use-change-topic';
import { historyQueries, type HistorySubject } from '../api/history.api';
import { HistoryPageView } from './history-list';

/** The push that says a subject of this kind changed (and so has a new history entry). */
function topicOf(subject: HistorySubject): ChangeTopic {
  switch (subject.kind) {
    case 'user':
      return subject.id === 'self' ? 'self' : 'users';
    case 'token':
      return 'tokens';
    case 'channel':
      return 'channels';
    case 'redemption':
      return 'redemptions';
    case 'options':
      return 'options';
  }
}

/**
 * The changes of one user, token, channel, code or of the options, a page at a time; read again
 * whenever the server pushes a change of that kind, so a save shows at once.
 */
export function SubjectHistory({ subject }: { subject: HistorySubject }) {
  const [page, setPage] = useState(1);
  const query = useQuery({ ...historyQueries.list(subject, page), meta: { silent: true } });
  const { refetch } = query;
  useChangeTopic(topicOf(subject), () => void refetch());
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
