import { Card, SimpleGrid, Stack, Title } from '@mantine/core';
import { isAdmin } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { Stat } from '@/components/stat';
import { useSessionUser } from '@/features/auth';
import { useSelf } from '@/features/setting';
import { QuotaBalance, useQuotaFormatter } from '@/features/status';
import { useStripeReturn } from '../hooks/use-stripe-return';
import { OnlineTopUpCard } from './online-topup-card';
import { RedeemCard } from './redeem-card';
import { TopUpOrdersCard } from './topup-orders-card';

/**
 * /topup: the balance, the code entry, online top-up (Epay, Stripe) and the orders. No crypto
 * top-up card: that payment feature has ended.
 */
export function WalletPage() {
  const { t } = useTranslation();
  const role = useSessionUser()?.role;
  const admin = role !== undefined && isAdmin(role);
  useStripeReturn();

  return (
    <Stack maw={960}>
      <Title order={2}>{t('wallet.title')}</Title>
      <BalanceCard />
      <RedeemCard />
      <OnlineTopUpCard />
      <TopUpOrdersCard admin={admin} />
    </Stack>
  );
}

/** The balance, the quota used and the request count. */
function BalanceCard() {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const self = useSelf();
  return (
    <Card withBorder radius="md">
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Stat
          label={t('wallet.balance')}
          value={self.data ? <QuotaBalance quota={self.data.quota} /> : '—'}
          testId="wallet-balance"
        />
        <Stat
          label={t('wallet.usedQuota')}
          value={self.data ? formatQuota(self.data.used_quota) : '—'}
          testId="wallet-used"
        />
        <Stat
          label={t('wallet.requestCount')}
          value={self.data ? String(self.data.request_count) : '—'}
        />
      </SimpleGrid>
    </Card>
  );
}
