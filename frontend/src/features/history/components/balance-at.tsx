import { Alert, Button, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Stat } from '@/components/stat';
import { QuotaBalance, useQuotaFormatter } from '@/features/status';
import { notifyError } from '@/lib/notify';
import { formatDateTime, nowSeconds } from '@/utils/date-time';
import { historyQueries, type QuotaSubject } from '../api/history.api';
import { DateTimeInput, fromInputValue, toInputValue } from './date-time-input';
import { HistoryEntry } from './history-entry';

function Failure({ error }: { error: Error }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t('history.loadFailed')}>
      {error.message}
    </Alert>
  );
}

/** Before an import the source's figures are not known: where the recorded history begins. */
function BeforeImport({ begins }: { begins: number | null }) {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" data-testid="balance-at-result">
      {t('history.balanceAt.beforeImport', { time: formatDateTime(begins ?? 0) })}
    </Text>
  );
}

/** A user's quota, used quota and the balance changes that led there, at an instant. */
function UserBalance({ id, instant }: { id: number | 'self'; instant: number }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const query = useQuery({ ...historyQueries.userQuotaAt(id, instant), meta: { silent: true } });
  if (query.error) return <Failure error={query.error} />;
  const data = query.data;
  if (!data) return null;
  if (data.quota === null || data.used_quota === null)
    return <BeforeImport begins={data.history_begins_at} />;
  const changes = data.changes.items;
  return (
    <Stack data-testid="balance-at-result">
      <SimpleGrid cols={{ base: 2, sm: 3 }}>
        <Stat
          size="lg"
          label={t('history.balanceAt.quota')}
          value={<QuotaBalance quota={data.quota} />}
          testId="balance-at-quota"
        />
        <Stat
          size="lg"
          label={t('history.balanceAt.usedQuota')}
          value={formatQuota(data.used_quota)}
          testId="balance-at-used"
        />
        <Stat
          size="lg"
          label={t('history.balanceAt.requestCount')}
          value={String(data.request_count ?? 0)}
          testId="balance-at-requests"
        />
      </SimpleGrid>
      {changes.length > 0 && (
        <Stack gap="sm">
          <Title order={5}>{t('history.balanceAt.ledTo')}</Title>
          {changes.map((item, index) => (
            <Stack key={`${item.time}-${index}`} gap="sm">
              {index > 0 && <Divider />}
              <HistoryEntry item={item} />
            </Stack>
          ))}
          {data.changes.total > changes.length && (
            <Text size="sm" c="dimmed">
              {t('history.balanceAt.more', { count: data.changes.total - changes.length })}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/** A token's remaining and used quota at an instant (or that it did not exist yet). */
function TokenBalance({ id, instant }: { id: number; instant: number }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const query = useQuery({ ...historyQueries.tokenQuotaAt(id, instant), meta: { silent: true } });
  if (query.error) return <Failure error={query.error} />;
  const data = query.data;
  if (!data) return null;
  if (!data.existed)
    return (
      <Text c="dimmed" data-testid="balance-at-result">
        {t('history.balanceAt.notYet')}
      </Text>
    );
  if (data.remain_quota === null || data.used_quota === null)
    return <BeforeImport begins={data.history_begins_at} />;
  return (
    <SimpleGrid cols={2} data-testid="balance-at-result">
      <Stat
        size="lg"
        label={t('history.balanceAt.remainQuota')}
        value={
          data.unlimited_quota ? (
            t('history.balanceAt.unlimited')
          ) : (
            <QuotaBalance quota={data.remain_quota} />
          )
        }
        testId="balance-at-remain"
      />
      <Stat
        size="lg"
        label={t('history.balanceAt.usedQuota')}
        value={formatQuota(data.used_quota)}
        testId="balance-at-used"
      />
    </SimpleGrid>
  );
}

/** The balance-at view: pick an instant (the browser's date-time picker), see the balance then. */
export function BalanceAt({ subject }: { subject: QuotaSubject }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(() => toInputValue(nowSeconds()));
  const [instant, setInstant] = useState<number | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const seconds = fromInputValue(draft);
    if (seconds === null) return notifyError(t('history.balanceAt.badTime'));
    setInstant(seconds);
  };

  return (
    <Stack>
      <form onSubmit={submit}>
        <Group align="end" wrap="wrap">
          <DateTimeInput
            label={t('history.balanceAt.instant')}
            value={draft}
            onChange={setDraft}
            testId="balance-at-input"
          />
          <Button type="submit">{t('history.balanceAt.show')}</Button>
        </Group>
      </form>
      {instant === null ? (
        <Text size="sm" c="dimmed">
          {t('history.balanceAt.hint')}
        </Text>
      ) : subject.kind === 'user' ? (
        <UserBalance id={subject.id} instant={instant} />
      ) : (
        <TokenBalance id={subject.id} instant={instant} />
      )}
    </Stack>
  );
}
