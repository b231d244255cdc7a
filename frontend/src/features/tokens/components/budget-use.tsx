import { Text } from '@mantine/core';
import type { TokenDto } from '@tollgate/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '@/features/status';
import { formatDateTime } from '@/utils/date-time';

/** The budget fields a token and a user share (docs/budgets.md). */
type Budget = Pick<TokenDto, 'period' | 'period_quota' | 'period_used' | 'period_reset_at'>;

/**
 * "每日 $0.50 / $2.00" with "2026-11-26 00:00:00 重置" under it when there is a budget, else
 * `fallback`. The tokens table and the user edit both use it.
 */
export function BudgetUse({
  budget,
  testId,
  fallback = null,
}: {
  budget: Budget;
  testId: string;
  fallback?: ReactNode;
}) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  if (!budget.period || !budget.period_quota) return fallback;
  // An answer charged past its reservation can spend past the budget: red while it is.
  const overspent = budget.period_used > budget.period_quota;
  return (
    <Text size="sm" c={overspent ? 'red' : undefined} data-testid={testId}>
      {t('tokens.budgetUse', {
        period: t(`tokens.period.${budget.period}`),
        used: formatQuota(budget.period_used),
        limit: formatQuota(budget.period_quota),
      })}
      <Text span size="xs" c="dimmed" display="block">
        {t('tokens.budgetReset', { time: formatDateTime(budget.period_reset_at) })}
      </Text>
    </Text>
  );
}
