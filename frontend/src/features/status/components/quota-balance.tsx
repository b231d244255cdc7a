import { Badge, Text, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '../hooks/use-quota-formatter';

interface QuotaBalanceProps {
  /** A user's balance or a token's remaining quota, in quota units. */
  quota: number;
  /** Shows the figure as a light badge of this colour (red in debt) instead of inline text. */
  badgeColor?: MantineColor;
}

/**
 * A balance as the console formats quota. Below zero it is a debt (an answer charged past what was
 * left): the figure turns red and a 欠费 badge follows it, since every further call is refused
 * until a top-up or an administrator covers it. Inline, so it fits a table cell, a stat or a hint.
 */
export function QuotaBalance({ quota, badgeColor }: QuotaBalanceProps) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const shown = formatQuota(quota);
  const debt = quota < 0;
  const figure = badgeColor ? (
    <Badge component="span" variant="light" color={debt ? 'red' : badgeColor}>
      {shown}
    </Badge>
  ) : debt ? (
    <Text span inherit c="red">
      {shown}
    </Text>
  ) : (
    shown
  );
  if (!debt) return figure;
  return (
    <>
      {figure}
      <Badge
        component="span"
        size="xs"
        color="red"
        ml={6}
        title={t('common.inDebtHint')}
        data-testid="debt-badge"
        style={{ verticalAlign: 'middle' }}
      >
        {t('common.inDebt')}
      </Badge>
    </>
  );
}
