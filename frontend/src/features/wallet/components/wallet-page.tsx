import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconExternalLink, IconTicket } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelf } from '@/features/setting';
import { useQuotaFormatter, useStatus } from '@/features/status';
import { notifyError } from '@/lib/notify';
import { useRedeemCode } from '../hooks/use-redeem-code';

/**
 * /topup: the balance and the code entry. Online payment (Stripe) and the crypto card stay hidden
 * until the payments issue.
 */
export function WalletPage() {
  const { t } = useTranslation();
  const { top_up_link } = useStatus();
  const formatQuota = useQuotaFormatter();
  const self = useSelf();
  const redeem = useRedeemCode();
  const [code, setCode] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const key = code.trim();
    if (!key) return notifyError(t('wallet.enterCode'));
    redeem.mutate(key, { onSuccess: () => setCode('') });
  };

  const stat = (label: string, value: string, testId?: string) => (
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
    <Stack maw={720}>
      <Title order={2}>{t('wallet.title')}</Title>
      <Card withBorder radius="md">
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          {stat(
            t('wallet.balance'),
            self.data ? formatQuota(self.data.quota) : '—',
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
              {top_up_link && (
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
              )}
            </Group>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
