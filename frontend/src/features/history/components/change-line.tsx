import { Text } from '@mantine/core';
import type { HistoryEntityKind } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '@/features/status';
import type { HistoryChange } from '../api/history.api';
import { historyZhCN } from '../locales/zh-cn';
import { fieldLabelKey } from '../utils/change-labels';
import { formatChangeValue, type ValueContext } from '../utils/change-values';
import { isBlank } from '../utils/visible-changes';

const FIELDS = historyZhCN.history.fields;

function ChangeBody({ change, ctx }: { change: HistoryChange; ctx: ValueContext }) {
  const format = (value: unknown) => formatChangeValue(ctx, change.field, value);
  if (change.secret)
    return (
      <Text span fs="italic">
        {ctx.t('history.changed')}
      </Text>
    );
  if (change.before === null && change.after === null && typeof change.delta === 'number') {
    const delta = change.delta;
    return (
      <Text span fw={500}>
        {delta >= 0 ? '+' : '−'}
        {format(Math.abs(delta))}
      </Text>
    );
  }
  // A field set for the first time (a creation) reads as its value alone.
  if (isBlank(change.before))
    return (
      <Text span fw={500}>
        {format(change.after)}
      </Text>
    );
  return (
    <>
      <Text span c="dimmed">
        {format(change.before)}
      </Text>
      {' → '}
      <Text span fw={500}>
        {format(change.after)}
      </Text>
    </>
  );
}

/**
 * One field, labelled as its form labels it: "before → after" in words (names for codes, dates for
 * times), only "changed" for a secret, a signed amount for a grant recorded as an amount only.
 */
export function ChangeLine({ change, kind }: { change: HistoryChange; kind?: HistoryEntityKind }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const labelKey = fieldLabelKey(kind, change.field, FIELDS);
  return (
    <Text size="sm" data-testid="history-change" style={{ overflowWrap: 'anywhere' }}>
      <Text span c="dimmed">
        {labelKey ? t(labelKey, { defaultValue: change.field }) : change.field}:{' '}
      </Text>
      <ChangeBody change={change} ctx={{ t, formatQuota, kind }} />
    </Text>
  );
}
