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
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MAX_TOKEN_BATCH } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { selfQueries } from '@/features/setting';
import { useQuotaFormatter, useStatus } from '@/features/status';
import { formatDateTime, nowSeconds } from '@/utils/date-time';
import type { FieldErrors } from '@/hooks/use-field-errors';
import type { SetTokenField } from '../hooks/use-token-form';
import {
  COUNT_PRESETS,
  EXPIRY_SHORTCUTS,
  QUOTA_PRESETS_USD,
  type TokenFormValues,
} from '../utils/token-form';

/** Each section reads the form's values and sets its own fields. */
interface SectionProps {
  values: TokenFormValues;
  set: SetTokenField;
  errors: FieldErrors<keyof TokenFormValues>;
}

/** Quota units per dollar when the server's status does not give one. */
const DEFAULT_QUOTA_PER_UNIT = 500_000;

interface Preset {
  key: string | number;
  label: string;
  pick: () => void;
}

/** A row of small buttons under a field, each filling it with a preset value. */
function PresetButtons({ presets, disabled }: { presets: Preset[]; disabled?: boolean }) {
  return (
    <Group gap={6}>
      {presets.map((preset) => (
        <Button
          key={preset.key}
          size="compact-xs"
          variant="light"
          disabled={disabled}
          onClick={preset.pick}
        >
          {preset.label}
        </Button>
      ))}
    </Group>
  );
}

/** The expiry as local date-time text ('' = never), with never / hour / day / month shortcuts. */
export function ExpiryField({ values, set, errors }: SectionProps) {
  const { t } = useTranslation();
  const presets = EXPIRY_SHORTCUTS.map(({ key, seconds }) => ({
    key,
    label: t(`tokens.drawer.${key}`),
    pick: () => set('expiry', seconds === null ? '' : formatDateTime(nowSeconds() + seconds)),
  }));
  return (
    <Stack gap={6}>
      <TextInput
        label={t('tokens.drawer.expiry')}
        placeholder={t('tokens.drawer.expiryPlaceholder')}
        description={values.expiry.trim() ? undefined : t('tokens.neverExpires')}
        value={values.expiry}
        onChange={(event) => set('expiry', event.currentTarget.value)}
        {...errors.props('expiry')}
      />
      <PresetButtons presets={presets} />
    </Stack>
  );
}

/** The remaining quota in units, dollar presets, and the unlimited switch that turns both off. */
export function QuotaFields({ values, set, errors }: SectionProps) {
  const { t } = useTranslation();
  const { quota_per_unit } = useStatus();
  const formatQuota = useQuotaFormatter();
  const perUnit = quota_per_unit > 0 ? quota_per_unit : DEFAULT_QUOTA_PER_UNIT;
  const quotaNumber = Number(values.remainQuota);
  const presets = QUOTA_PRESETS_USD.map((dollars) => ({
    key: dollars,
    label: `$${dollars}`,
    pick: () => set('remainQuota', dollars * perUnit),
  }));
  return (
    <>
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
          {...errors.props('remainQuota')}
        />
        <PresetButtons presets={presets} disabled={values.unlimited} />
        <Switch
          label={t('tokens.drawer.unlimited')}
          checked={values.unlimited}
          onChange={(event) => set('unlimited', event.currentTarget.checked)}
        />
      </Stack>
    </>
  );
}

/** How many tokens one create makes (creating only). */
export function CountField({ values, set, errors }: SectionProps) {
  const { t } = useTranslation();
  const presets = COUNT_PRESETS.map((count) => ({
    key: count,
    label: String(count),
    pick: () => set('count', count),
  }));
  return (
    <Stack gap={6}>
      <NumberInput
        label={t('tokens.drawer.count')}
        placeholder={t('tokens.drawer.countPlaceholder')}
        description={t('tokens.drawer.countHint')}
        min={1}
        max={MAX_TOKEN_BATCH}
        allowDecimal={false}
        allowNegative={false}
        value={values.count}
        onChange={(value) => set('count', value)}
        {...errors.props('count')}
      />
      <PresetButtons presets={presets} />
    </Stack>
  );
}

/** The model limit switch and the models the token is limited to. */
export function ModelLimitFields({ values, set }: SectionProps) {
  const { t } = useTranslation();
  const models = useQuery(selfQueries.models());
  // The models the user may use, plus any the token already limits to.
  const modelOptions = useMemo(() => {
    const names = new Set(models.data ?? []);
    for (const name of values.modelLimits) names.add(name);
    return [...names].sort();
  }, [models.data, values.modelLimits]);
  return (
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
      <Switch
        label={t('tokens.drawer.modelFallback')}
        description={t('tokens.drawer.modelFallbackHint')}
        checked={values.modelFallback}
        onChange={(event) => set('modelFallback', event.currentTarget.checked)}
      />
    </Stack>
  );
}

/** The group the token relays through, among the user's groups; off when there are none. */
export function GroupField({ values, set }: SectionProps) {
  const { t } = useTranslation();
  const groups = useQuery(selfQueries.groups());
  const groupOptions = Object.entries(groups.data ?? {}).map(([value, { desc }]) => ({
    value,
    label: desc && desc !== value ? `${value}（${desc}）` : value,
  }));
  const noGroups = groups.isSuccess && groupOptions.length === 0;
  return (
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
  );
}

const RATE_LIMIT_FIELDS = ['rpm', 'tpm', 'concurrency'] as const;

/** Per-token requests per minute, tokens per minute and concurrent requests (0 = no limit). */
export function RateLimitFields({ values, set, errors }: SectionProps) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t('tokens.drawer.rateLimits')}
      </Text>
      <SimpleGrid cols={3}>
        {RATE_LIMIT_FIELDS.map((field) => (
          <NumberInput
            key={field}
            label={t(`tokens.drawer.${field}`)}
            min={0}
            allowDecimal={false}
            allowNegative={false}
            value={values[field]}
            onChange={(value) => set(field, value)}
            {...errors.props(field)}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
