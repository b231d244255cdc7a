import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconExternalLink, IconTicket } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { isAdmin } from '@tollgate/contracts';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSessionUser } from '@/features/auth';
import { selfQueries, useSelf } from '@/features/setting';
import { QuotaBalance, useQuotaFormatter, useStatus } from '@/features/status';
import { notifyError, notifySuccess } from '@/lib/notify';
import { topUpQueries } from '../api/wallet.api';
import { useRedeemCode } from '../hooks/use-redeem-code';
import { OnlineTopUpCard } from './online-topup-card';
import { TopUpOrdersCard } from './topup-orders-card';

/**
 * Back from Stripe Checkout (`?session_id=…`): say the payment went through, read the balance and
 * the orders again, and drop the parameter so a reload does not say it twice.
 */
function useStripeReturn() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const sessionId = params.get('session_id');
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (!sessionId || seen.current === sessionId) return;
    seen.current = sessionId;
    notifySuccess(t('wallet.paid'));
    void queryClient.invalidateQueries({ queryKey: selfQueries.all });
    void queryClient.invalidateQueries({ queryKey: topUpQueries.all });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('session_id');
        return next;
      },
      { replace: true },
    );
  }, [sessionId, queryClient, setParams, t]);
}

/**
 * /topup: the balance, the code entry, online top-up (Epay, Stripe) and the orders. The crypto
 * card of the spec stays hidden (its feature has ended).
 */
export function WalletPage() {
  const { t } = useTranslation();
  const { top_up_link } = useStatus();
  const formatQuota = useQuotaFormatter();
  const self = useSelf();
  const role = useSessionUser()?.role;
  const admin = role !== undefined && isAdmin(role);
  const redeem = useRedeemCode();
  const [code, setCode] = useState('');
  useStripeReturn();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const key = code.trim();
    if (!key) return notifyError(t('wallet.enterCode'));
    redeem.mutate(key, { onSuccess: () => setCode('') });
  };

  const stat = (label: string, value: ReactNode, testId?: string) => (
    <Stack gap={2}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );

  return (
    <Stack maw={960}>
      <Title order={2}>{t('wallet.title')}</Title>
      <Card withBorder radius="md">
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          {stat(
            t('wallet.balance'),
            self.data ? <QuotaBalance quota={self.data.quota} /> : '—',
            'wallet-balance',
          )}
          {stat(t('wallet.usedQuota'), self.data ? formatQuota(self.data.used_quota) : '—')}
          {stat(t('wallet.requestCount'), self.data ? String(self.data.request_count) : '—')}
        </SimpleGrid>
      </Card>
      <Card withBorder radius="md">
        <Title order={4} mb="md">
          {t('wallet.redeemTitle')}
        </Title>
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label={t('wallet.codeLabel')}
              placeholder={t('wallet.codePlaceholder')}
              leftSection={<IconTicket size={16} />}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
            <Group>
              <Button type="submit" loading={redeem.isPending}>
                {t('wallet.redeem')}
              </Button>
              {top_up_link ? (
                <Button
                  variant="light"
                  component="a"
                  href={top_up_link}
                  target="_blank"
                  rel="noreferrer"
                  rightSection={<IconExternalLink size={14} />}
                >
                  {t('wallet.getCode')}
                </Button>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('wallet.noTopUpLink')}
                </Text>
              )}
            </Group>
          </Stack>
        </form>
      </Card>
      <OnlineTopUpCard />
      <TopUpOrdersCard admin={admin} />
    </Stack>
  );
}
