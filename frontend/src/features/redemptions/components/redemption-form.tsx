import { Button, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import type { RedemptionDto } from '@tollgate/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '@/features/status';
import { notifyError } from '@/lib/notify';
import { useCreateRedemptions, useUpdateRedemption } from '../hooks/use-redemption-mutations';
import {
  buildRedemptionRequest,
  emptyRedemptionForm,
  type RedemptionFormValues,
} from '../utils/redemption-form';

interface RedemptionFormProps {
  /** The code being edited; absent to create. */
  redemption?: RedemptionDto;
  onDone: () => void;
  /** After a creation: the name and the generated keys. */
  onCreated: (name: string, keys: string[]) => void;
}

export function RedemptionForm({ redemption, onDone, onCreated }: RedemptionFormProps) {
  const { t } = useTranslation();
  const creating = redemption === undefined;
  const formatQuota = useQuotaFormatter();
  const create = useCreateRedemptions();
  const update = useUpdateRedemption();
  const [values, setValues] = useState<RedemptionFormValues>(() =>
    redemption
      ? { name: redemption.name, quota: redemption.quota, count: 1 }
      : emptyRedemptionForm(),
  );
  const set = <K extends keyof RedemptionFormValues>(name: K, value: RedemptionFormValues[K]) =>
    setValues((current) => ({ ...current, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = buildRedemptionRequest(values, creating);
    if (!result.ok) {
      if (result.error) notifyError(t(result.error));
      return;
    }
    const { request } = result;
    if (creating) {
      create.mutate(request, {
        onSuccess: (keys) => {
          onDone();
          onCreated(request.name, keys ?? []);
        },
      });
    } else {
      update.mutate(
        { id: redemption.id, name: request.name, quota: request.quota },
        { onSuccess: onDone },
      );
    }
  };
  const quotaNumber = Number(values.quota);

  return (
    <form onSubmit={submit} noValidate data-testid="redemption-form">
      <Stack>
        <TextInput
          label={t('redemptions.drawer.name')}
          placeholder={t('redemptions.drawer.namePlaceholder')}
          withAsterisk={creating}
          value={values.name}
          onChange={(event) => set('name', event.currentTarget.value)}
        />
        <NumberInput
          label={t('redemptions.drawer.quota')}
          placeholder={t('redemptions.drawer.quotaPlaceholder')}
          description={
            Number.isFinite(quotaNumber)
              ? t('redemptions.drawer.quotaWorth', { amount: formatQuota(quotaNumber) })
              : undefined
          }
          min={1}
          allowDecimal={false}
          allowNegative={false}
          value={values.quota}
          onChange={(value) => set('quota', value)}
        />
        {creating && (
          <NumberInput
            label={t('redemptions.drawer.count')}
            placeholder={t('redemptions.drawer.countPlaceholder')}
            min={1}
            max={100}
            allowDecimal={false}
            allowNegative={false}
            value={values.count}
            onChange={(value) => set('count', value)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('redemptions.drawer.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {t('redemptions.drawer.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
