import { Alert, Badge, Button, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { optionQueries } from '../../api/options.api';
import { unpricedModels, type PriceTexts } from '../../utils/price-table';

interface UnpricedModelsProps {
  readonly texts: PriceTexts;
  /** Models already added to the table to be priced. */
  readonly pending: readonly string[];
  readonly onFill: (models: string[]) => void;
}

/**
 * The models enabled channels serve that have no ratio and no price (the relay refuses them):
 * one click adds them to the table with an empty ratio to fill in, nothing is saved until then.
 */
export function UnpricedModels({ texts, pending, onFill }: UnpricedModelsProps) {
  const { t } = useTranslation();
  const enabled = useQuery(optionQueries.enabledModels());
  const models = unpricedModels(enabled.data ?? [], texts).filter((m) => !pending.includes(m));
  if (models.length === 0) return null;
  return (
    <Alert
      color="orange"
      title={t('options.prices.unpricedTitle', { count: models.length })}
      data-testid="unpriced-models"
    >
      <Text size="sm" mb="xs">
        {t('options.prices.unpricedBody')}
      </Text>
      <Group gap={4} mb="sm">
        {models.map((model) => (
          <Badge key={model} variant="light" color="orange" tt="none">
            {model}
          </Badge>
        ))}
      </Group>
      <Button size="xs" color="orange" onClick={() => onFill(models)}>
        {t('options.prices.fill')}
      </Button>
    </Alert>
  );
}
