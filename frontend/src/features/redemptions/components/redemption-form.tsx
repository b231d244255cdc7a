import { Button, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import type { RedemptionDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '@/features/status';
import { useRedemptionForm } from '../hooks/use-redemption-form';

interface RedemptionFormProps {
  /** The code being edited; absent to create. */
  redemption?: RedemptionDto;
  onDone: () => void;
  /** After a creation: the name and the generated keys. */
  onCreated: (name: string, keys: string[]) => void;
}

export function RedemptionForm(props: RedemptionFormProps) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const { creating, values, set, errors, submit, saving } = useRedemptionForm(props);
  const quotaNumber = Number(values.quota);

  return (
    <form ref={errors.ref} onSubmit={submit} noValidate data-testid="redemption-form">
      <Stack>
        <TextInput
          label={t('redemptions.drawer.name')}
          placeholder={t('redemptions.drawer.namePlaceholder')}
          withAsterisk={creating}
          value={values.name}
          onChange={(event) => set('name', event.currentTarget.value)}
          {...errors.props('name')}
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
          {...errors.props('quota')}
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
            {...errors.props('count')}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onDone}>
            {t('redemptions.drawer.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {t('redemptions.drawer.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
