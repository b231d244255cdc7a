import { Badge, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheckFilled, IconCircleX } from '@tabler/icons-react';
import { QuotaType, type PricingRowDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import type { QuotaDisplay } from '@/utils/format-quota';
import { priceCells } from '../utils/prices';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/** A row the relay has no price for (neither ModelPrice nor ModelRatio names it). */
export const unpriced = (row: Pick<PricingRowDto, 'price_configured'>) =>
  row.price_configured === false;

/**
 * A check when the shown group may use the model, a cross when not, and a warning instead of the
 * check when no price is set (the relay refuses the model unless self-use mode is on).
 */
export function AvailableIcon({ available, priced }: { available: boolean; priced: boolean }) {
  const { t } = useTranslation();
  if (available && !priced)
    return (
      <Tooltip label={t('pricing.unpricedHint')}>
        <IconAlertTriangle
          size={20}
          color="var(--mantine-color-orange-6)"
          aria-label={t('pricing.unpriced')}
        />
      </Tooltip>
    );
  return available ? (
    <Tooltip label={t('pricing.available')}>
      <IconCircleCheckFilled
        size={20}
        color="var(--mantine-color-green-6)"
        aria-label={t('pricing.available')}
      />
    </Tooltip>
  ) : (
    <Tooltip label={t('pricing.unavailable')}>
      <IconCircleX
        size={20}
        color="var(--mantine-color-dimmed)"
        aria-label={t('pricing.unavailable')}
      />
    </Tooltip>
  );
}

/** The model's name as a badge; a click copies it. */
export function ModelNameBadge({ name, onCopy }: { name: string; onCopy: (name: string) => void }) {
  const { t } = useTranslation();
  return (
    <UnstyledButton onClick={() => onCopy(name)} aria-label={t('pricing.copyName', { name })}>
      <Badge variant="light" color="green" tt="none" style={{ cursor: 'pointer' }}>
        {name}
      </Badge>
    </UnstyledButton>
  );
}

/** Billed per call or by token ratios; no price set. */
export function QuotaTypeBadge({ row }: { row: PricingRowDto }) {
  const { t } = useTranslation();
  if (unpriced(row))
    return (
      <Badge variant="light" color="orange" tt="none" data-testid="unpriced-badge">
        {t('pricing.unpriced')}
      </Badge>
    );
  return row.quota_type === QuotaType.PerCall ? (
    <Badge variant="light" color="teal">
      {t('pricing.quotaType.perCall')}
    </Badge>
  ) : (
    <Badge variant="light" color="violet">
      {t('pricing.quotaType.ratio')}
    </Badge>
  );
}

interface GroupTagsProps {
  groups: readonly string[];
  /** The group shown: a filled tag; the others the caller may use are buttons to switch to. */
  current: string;
  usable: Readonly<Record<string, string>>;
  onSwitch: (group: string) => void;
}

/** The groups that offer the model, only those the caller may use. */
export function GroupTags({ groups, current, usable, onSwitch }: GroupTagsProps) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="wrap">
      {groups
        .filter((name) => Object.hasOwn(usable, name))
        .map((name) =>
          name === current ? (
            <Badge key={name} variant="filled" tt="none">
              {name}
            </Badge>
          ) : (
            <UnstyledButton
              key={name}
              onClick={() => onSwitch(name)}
              aria-label={t('pricing.viewGroup', { group: name })}
            >
              <Badge variant="outline" tt="none" style={{ cursor: 'pointer' }}>
                {name}
              </Badge>
            </UnstyledButton>
          ),
        )}
    </Group>
  );
}

/** Model, completion and group ratios (the first two do not apply to per-call models). */
export function RatioCell({ row, groupRatio }: { row: PricingRowDto; groupRatio: number }) {
  const { t } = useTranslation();
  if (unpriced(row)) return <UnpricedText row={row} />;
  const perCall = row.quota_type === QuotaType.PerCall;
  return (
    <Stack gap={0}>
      <Text size="sm" style={NO_WRAP}>
        {t('pricing.modelRatio', { value: perCall ? t('pricing.none') : row.model_ratio })}
      </Text>
      <Text size="sm" style={NO_WRAP}>
        {t('pricing.completionRatio', {
          value: perCall ? t('pricing.none') : row.completion_ratio,
        })}
      </Text>
      <Text size="sm" style={NO_WRAP}>
        {t('pricing.groupRatio', { value: groupRatio })}
      </Text>
    </Stack>
  );
}

interface PriceCellProps {
  row: PricingRowDto;
  groupRatio: number;
  display: QuotaDisplay;
}

/** The price in the shown group: per call, or per prompt and completion tokens. */
export function PriceCell({ row, groupRatio, display }: PriceCellProps) {
  const { t } = useTranslation();
  if (unpriced(row)) return <UnpricedText row={row} />;
  const cells = priceCells(row, groupRatio, display);
  return cells.mode === 'price' ? (
    <Text size="sm" style={NO_WRAP} data-testid="price-per-call">
      {t('pricing.perCall', { price: cells.perCall })}
    </Text>
  ) : (
    <Stack gap={0}>
      <Text size="sm" style={NO_WRAP} data-testid="price-prompt">
        {t('pricing.prompt', { price: cells.prompt })}
      </Text>
      <Text size="sm" style={NO_WRAP} data-testid="price-completion">
        {t('pricing.completion', { price: cells.completion })}
      </Text>
    </Stack>
  );
}

/** No price set: said so, with the ratio self-use mode bills at when it is on, and no numbers else. */
function UnpricedText({ row }: { row: PricingRowDto }) {
  const { t } = useTranslation();
  return (
    <Stack gap={0}>
      <Text size="sm" c="orange" style={NO_WRAP}>
        {t('pricing.unpriced')}
      </Text>
      {row.model_ratio > 0 && (
        <Text size="xs" c="dimmed" style={NO_WRAP}>
          {t('pricing.selfUseRatio', { ratio: row.model_ratio })}
        </Text>
      )}
    </Stack>
  );
}
