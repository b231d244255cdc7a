import { Stack, Text, Tooltip } from '@mantine/core';
import type { ChannelPerformanceDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { formatLatency, formatRatio } from '../utils/performance-format';

/** Lines shown in the cell; the busiest models first, the rest counted. */
const MAX_LINES = 3;
/** An error rate at or above this is shown red; any error orange. */
const ALARMING_RATE = 0.1;

function errorColor(rate: number): string | undefined {
  if (rate >= ALARMING_RATE) return 'red';
  return rate > 0 ? 'orange' : undefined;
}

/**
 * The channel's last hour per model: median time (the first token's for stream-only models),
 * error rate and its share of the model's answers.
 */
export function ChannelPerformanceCell({ rows }: { rows: readonly ChannelPerformanceDto[] }) {
  const { t } = useTranslation();
  if (rows.length === 0)
    return (
      <Text size="xs" c="dimmed">
        {t('channels.performance.noCalls')}
      </Text>
    );
  const busiest = [...rows].sort((a, b) => b.calls - a.calls);
  return (
    <Tooltip label={t('channels.performance.hint')} multiline w={260}>
      <Stack gap={0} data-testid="channel-performance">
        {busiest.slice(0, MAX_LINES).map((row) => (
          // Wraps at its spaces: the phone's card layout gives the value half a card.
          <Text key={row.model} size="xs" c={errorColor(row.error_rate)}>
            {t('channels.performance.line', {
              model: row.model,
              p50: formatLatency(row.p50_ms ?? row.ttft_p50_ms),
              errors: formatRatio(row.error_rate),
              share: formatRatio(row.share),
            })}
          </Text>
        ))}
        {busiest.length > MAX_LINES && (
          <Text size="xs" c="dimmed">
            +{busiest.length - MAX_LINES}
          </Text>
        )}
      </Stack>
    </Tooltip>
  );
}
