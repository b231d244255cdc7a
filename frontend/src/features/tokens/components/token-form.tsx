import {
  Alert,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TokenDto } from '@tollgate/contracts';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { selfQueries } from '@/features/setting';
import { useQuotaFormatter, useStatus } from '@/features/status';
import { notifyError } from '@/lib/notify';
import { formatDateTime, nowSeconds } from '@/utils/date-time';
import { useCreateTokens, useUpdateToken } from '../hooks/use-token-mutations';
import { BudgetFields } from './budget-fields';
import {
  buildTokenRequest,
  COUNT_PRESETS,
  emptyTokenForm,
  EXPIRY_SHORTCUTS,
  QUOTA_PRESETS_USD,
  tokenToForm,
  type TokenFormValues,
} from '../utils/token-form';

interface TokenFormProps {
  /** The token being edited; absent to create. */
  token?: TokenDto;
  onDone: () => void;
}

/** The drawer's body: spec 001 §5 token form (plus the per-token rate limits). */
export function TokenForm({ token, onDone }: TokenFormProps) {
  const { t } = useTranslation();
  const creating = token === undefined;
  const { quota_per_unit } = useStatus();
  const formatQuota = useQuotaFormatter();
  const create = useCreateTokens();
  const update = useUpdateToken();
  const models = useQuery(selfQueries.models());
  const groups = useQuery(selfQueries.groups());
  const [values, setValues] = useState<TokenFormValues>(() =>
    token ? tokenToForm(token) : emptyTokenForm(),
  );
  const set = <K extends keyof TokenFormValues>(name: K, value: TokenFormValues[K]) =>
    setValues((current) => ({ ...current, [name]: value }));

  // The models the user may use, plus any the token already limits to, for the limit selector.
  const modelOptions = useMemo(() => {
    const names = new Set(models.data ?? []);
    for (const name of values.modelLimits) names.add(name);
    return [...names].sort();
  }, [models.data, values.modelLimits]);
  const groupOptions = Object.entries(groups.data ?? {}).map(([value, { desc }]) => ({
    value,
    label: desc && desc !== value ? `${value}（${desc}）` : value,
  }));
  const noGroups = groups.isSuccess && groupOptions.length === 0;
  const perUnit = quota_per_unit > 0 ? quota_per_unit : 500_000;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = buildTokenRequest(values, nowSeconds(), creating);
    if (!result.ok) return notifyError(t(result.error));
    if (creating) create.mutate(result.request, { onSuccess: onDone });
    else update.mutate({ ...result.request, id: token.id }, { onSuccess: onDone });
  };

  const shortcut = (seconds: number | null) =>
    set('expiry', seconds === null ? '' : formatDateTime(nowSeconds() + seconds));
  const quotaNumber = Number(values.remainQuota);

  return (
    <form onSubmit={submit} noValidate data-testid="token-form">
      <Stack>
        <TextInput
          label={t('tokens.drawer.name')}
          placeholder={t('tokens.drawer.namePlaceholder')}
          withAsterisk={creating}
          value={values.name}
          onChange={(event) => set('name', event.currentTarget.value)}
        />

        <Stack gap={6}>
          <TextInput
            label={t('tokens.drawer.expiry')}
            placeholder={t('tokens.drawer.expiryPlaceholder')}
            description={values.expiry.trim() ? undefined : t('tokens.neverExpires')}
            value={values.expiry}
            onChange={(event) => set('expiry', event.currentTarget.value)}
          />
          <Group gap={6}>
            {EXPIRY_SHORTCUTS.map((item) => (
              <Button
                key={item.key}
                size="compact-xs"
                variant="light"
                onClick={() => shortcut(item.seconds)}
              >
                {t(`tokens.drawer.${item.key}`)}
              </Button>
            ))}
          </Group>
        </Stack>

        <Alert color="yellow" variant="light">
          {t('tokens.drawer.quotaNote')}
        </Alert>

        <Stack gap={6}>
          <NumberInput
            label={t('tokens.drawer.quota')}
            placeholder={t('tokens.drawer.quotaPlaceholder')}
            description={
              Number.isFinite(quotaNumber)
                ? t('tokens.drawer.quotaWorth', { amount: formatQuota(quotaNumber) })
                : undefined
            }
            min={0}
            allowDecimal={false}
            // A token charged past its quota is below zero: shown as it is, not with its sign
            // dropped, until a new quota of at least 0 replaces it.
            allowNegative={quotaNumber < 0}
            disabled={values.unlimited}
            value={values.remainQuota}
            onChange={(value) => set('remainQuota', value)}
          />
          <Group gap={6}>
            {QUOTA_PRESETS_USD.map((dollars) => (
              <Button
                key={dollars}
                size="compact-xs"
                variant="light"
                disabled={values.unlimited}
                onClick={() => set('remainQuota', dollars * perUnit)}
              >
                ${dollars}
              </Button>
            ))}
          </Group>
          <Switch
            label={t('tokens.drawer.unlimited')}
            checked={values.unlimited}
            onChange={(event) => set('unlimited', event.currentTarget.checked)}
          />
        </Stack>

        <BudgetFields
          testId="token-budget"
          period={values.period}
          periodQuota={values.periodQuota}
          onPeriod={(period) => set('period', period)}
          onPeriodQuota={(quota) => set('periodQuota', quota)}
        />

        {creating && (
          <Stack gap={6}>
            <NumberInput
              label={t('tokens.drawer.count')}
              placeholder={t('tokens.drawer.countPlaceholder')}
              description={t('tokens.drawer.countHint')}
              min={1}
              max={100}
              allowDecimal={false}
              allowNegative={false}
              value={values.count}
              onChange={(value) => set('count', value)}
            />
            <Group gap={6}>
              {COUNT_PRESETS.map((count) => (
                <Button
                  key={count}
                  size="compact-xs"
                  variant="light"
                  onClick={() => set('count', count)}
                >
                  {count}
                </Button>
              ))}
            </Group>
          </Stack>
        )}

        <Textarea
          label={t('tokens.drawer.allowIps')}
          placeholder={t('tokens.drawer.allowIpsPlaceholder')}
          rows={3}
          value={values.allowIps}
          onChange={(event) => set('allowIps', event.currentTarget.value)}
        />

        <Stack gap={6}>
          <Switch
            label={t('tokens.drawer.modelLimitsEnabled')}
            checked={values.modelLimitsEnabled}
            onChange={(event) => set('modelLimitsEnabled', event.currentTarget.checked)}
          />
          <MultiSelect
            label={t('tokens.drawer.modelLimits')}
            placeholder={t('tokens.drawer.modelLimitsPlaceholder')}
            data={modelOptions}
            disabled={!values.modelLimitsEnabled}
            value={values.modelLimits}
            onChange={(value) => set('modelLimits', value)}
            searchable
            clearable
          />
        </Stack>

        <Stack gap={4}>
          <Select
            label={t('tokens.drawer.group')}
            placeholder={t('tokens.drawer.groupPlaceholder')}
            data={groupOptions}
            disabled={noGroups}
            value={values.group || null}
            onChange={(value) => set('group', value ?? '')}
            clearable
          />
          {noGroups && (
            <Text size="xs" c="dimmed">
              {t('tokens.drawer.groupUnset')}
            </Text>
          )}
        </Stack>

        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {t('tokens.drawer.rateLimits')}
          </Text>
          <SimpleGrid cols={3}>
            {(['rpm', 'tpm', 'concurrency'] as const).map((field) => (
              <NumberInput
                key={field}
                label={t(`tokens.drawer.${field}`)}
                min={0}
                allowDecimal={false}
                allowNegative={false}
                value={values[field]}
                onChange={(value) => set(field, value)}
              />
            ))}
          </SimpleGrid>
        </Stack>

        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('tokens.drawer.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {t('tokens.drawer.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
