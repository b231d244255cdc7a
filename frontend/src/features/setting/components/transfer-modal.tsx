import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter, useStatus } from '@/features/status';
import { notifyError } from '@/lib/notify';
import { useAffTransfer } from '../hooks/use-aff-transfer';

interface TransferModalProps {
  opened: boolean;
  onClose: () => void;
  /** Pending invitation earnings (aff_quota), in quota units. */
  available: number;
}

/** Moves invitation earnings to the balance; at least one quota unit (QuotaPerUnit). */
export function TransferModal({ opened, onClose, available }: TransferModalProps) {
  const { t } = useTranslation();
  const { quota_per_unit } = useStatus();
  const formatQuota = useQuotaFormatter();
  const transfer = useAffTransfer();
  const [amount, setAmount] = useState<number | string>(quota_per_unit);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const quota = Number(amount);
    if (!Number.isFinite(quota) || quota < quota_per_unit) {
      return notifyError(`${t('setting.transferMinimum')}${formatQuota(quota_per_unit)}`);
    }
    transfer.mutate(quota, { onSuccess: onClose });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('setting.transferTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            {t('setting.transferAvailable', { amount: formatQuota(available) })}
          </Text>
          <NumberInput
            label={t('setting.transferAmount')}
            value={amount}
            onChange={setAmount}
            allowDecimal={false}
            allowNegative={false}
            description={t('setting.transferEquivalent', {
              amount: formatQuota(Number(amount) || 0),
            })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={transfer.isPending}>
              {t('common.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
