import { NumberInput, Select, SimpleGrid } from '@mantine/core';
import type { BudgetPeriodName } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '@/features/status';
import { BUDGET_PERIOD_OPTIONS } from '../utils/token-form';

/**
 * A periodic budget's two fields (docs/budgets.md): the period (none, day, week, month) and the quota
 * per period, shown in the display unit; the quota is off until a period is chosen. The token form
 * and the admin's user edit both use it.
 */
export function BudgetFields({
  period,
  periodQuota,
  onPeriod,
  onPeriodQuota,
  testId,
  quotaField,
}: {
  period: BudgetPeriodName;
  periodQuota: number | string;
  onPeriod: (period: BudgetPeriodName) => void;
  onPeriodQuota: (quota: number | string) => void;
  testId: string;
  /** The quota input's fault and marker (the shared form fault pattern), when the form has them. */
  quotaField?: { error?: string; 'data-field': string };
}) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const quota = Number(periodQuota);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid={testId}>
      <Select
        label={t('tokens.drawer.period')}
        description={t('tokens.drawer.periodHint')}
        data={BUDGET_PERIOD_OPTIONS.map((value) => ({
          value,
          label: t(`tokens.period.${value || 'none'}`),
        }))}
        value={period}
        onChange={(value) => onPeriod(value ?? '')}
        allowDeselect={false}
      />
      <NumberInput
        label={t('tokens.drawer.periodQuota')}
        description={
          period && Number.isFinite(quota)
            ? t('tokens.drawer.quotaWorth', { amount: formatQuota(quota) })
            : undefined
        }
        min={0}
        allowDecimal={false}
        allowNegative={false}
        disabled={!period}
        value={periodQuota}
        onChange={onPeriodQuota}
        {...quotaField}
      />
    </SimpleGrid>
  );
}
