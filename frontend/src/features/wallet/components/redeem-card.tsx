import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconExternalLink, IconTicket } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { notifyError } from '@/lib/notify';
import { useRedeemCode } from '../hooks/use-redeem-code';

/** The code entry, and the site's link to buy codes when one is set. */
export function RedeemCard() {
  const { t } = useTranslation();
  const { top_up_link } = useStatus();
  const redeem = useRedeemCode();
  const [code, setCode] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const key = code.trim();
    if (!key) return notifyError(t('wallet.enterCode'));
    redeem.mutate(key, { onSuccess: () => setCode('') });
  };

  return (
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
  );
}
