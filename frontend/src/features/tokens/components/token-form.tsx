import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import type { TokenDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useTokenForm } from '../hooks/use-token-form';
import { BudgetFields } from './budget-fields';
import {
  CountField,
  ExpiryField,
  GroupField,
  ModelLimitFields,
  QuotaFields,
  RateLimitFields,
} from './token-form-sections';

interface TokenFormProps {
  /** The token being edited; absent to create. */
  token?: TokenDto;
  onDone: () => void;
}

/**
 * The drawer's body: name, expiry, quota, periodic budget, batch count (creating only), IP allow
 * list, model limits, group and the per-token rate limits.
 */
export function TokenForm({ token, onDone }: TokenFormProps) {
  const { t } = useTranslation();
  const { values, set, errors, submit, creating, pending } = useTokenForm(token, onDone);
  const sections = { values, set, errors };

  return (
    <form ref={errors.ref} onSubmit={submit} noValidate data-testid="token-form">
      <Stack>
        <TextInput
          label={t('tokens.drawer.name')}
          placeholder={t('tokens.drawer.namePlaceholder')}
          withAsterisk={creating}
          value={values.name}
          onChange={(event) => set('name', event.currentTarget.value)}
          {...errors.props('name')}
        />
        <ExpiryField {...sections} />
        <QuotaFields {...sections} />
        <BudgetFields
          testId="token-budget"
          period={values.period}
          periodQuota={values.periodQuota}
          onPeriod={(period) => set('period', period)}
          onPeriodQuota={(quota) => set('periodQuota', quota)}
          quotaField={errors.props('periodQuota')}
        />
        {creating && <CountField {...sections} />}
        <Textarea
          label={t('tokens.drawer.allowIps')}
          placeholder={t('tokens.drawer.allowIpsPlaceholder')}
          rows={3}
          value={values.allowIps}
          onChange={(event) => set('allowIps', event.currentTarget.value)}
        />
        <ModelLimitFields {...sections} />
        <GroupField {...sections} />
        <RateLimitFields {...sections} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('tokens.drawer.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {t('tokens.drawer.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
