import { Badge, Stack, Text, Tooltip } from '@mantine/core';
import { responseTimeBand, type ChannelDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useFailureText } from '../hooks/use-failure-text';
import { formatUnixTime } from '../utils/channel-display';

type TimedChannel = Pick<
  ChannelDto,
  | 'response_time'
  | 'test_time'
  | 'test_failed'
  | 'last_failure_time'
  | 'last_failure_reason'
  | 'last_failure_status'
>;

/**
 * Response time colour bands: 0 untested; ≤1 s green; ≤3 s lime; ≤5 s yellow; above red. A failed
 * last test reads "failed" in red (its time says nothing), and the last failure is noted below.
 */
export function ResponseTimeTag({ channel }: { channel: TimedChannel }) {
  return (
    <Stack gap={2} align="flex-start">
      <TimeBadge channel={channel} />
      <LastFailureNote channel={channel} />
    </Stack>
  );
}

function TimeBadge({ channel }: { channel: TimedChannel }) {
  const { t } = useTranslation();
  const describe = useFailureText();
  const testedAt = formatUnixTime(channel.test_time);
  if (channel.test_failed) {
    const { reason } = describe(channel.last_failure_reason ?? '', channel.last_failure_status);
    return (
      <Tooltip label={`${t('channels.responseTime.testedAt', { time: testedAt })} · ${reason}`}>
        <Badge miw="max-content" variant="light" color="red" data-band="failed">
          {t('channels.responseTime.failed')}
        </Badge>
      </Tooltip>
    );
  }
  const band = responseTimeBand(channel.response_time);
  if (band === 'untested') {
    return (
      <Badge miw="max-content" variant="light" color="gray" data-band={band}>
        {t('channels.responseTime.untested')}
      </Badge>
    );
  }
  return (
    <Tooltip label={t('channels.responseTime.testedAt', { time: testedAt })} disabled={!testedAt}>
      <Badge miw="max-content" variant="light" color={band} data-band={band}>
        {t('channels.responseTime.seconds', { seconds: (channel.response_time / 1000).toFixed(2) })}
      </Badge>
    </Tooltip>
  );
}

/** When the channel last failed (a relayed call or a test), its reason on hover. */
function LastFailureNote({ channel }: { channel: TimedChannel }) {
  const { t } = useTranslation();
  const describe = useFailureText();
  const time = formatUnixTime(channel.last_failure_time ?? 0);
  if (!time) return null;
  const { reason, detail } = describe(
    channel.last_failure_reason ?? '',
    channel.last_failure_status,
  );
  return (
    <Tooltip
      multiline
      w={320}
      label={
        <>
          <Text size="xs">{reason}</Text>
          {detail && (
            <Text size="xs" c="dimmed">
              {detail}
            </Text>
          )}
        </>
      }
    >
      <Text size="xs" c="red" data-testid="channel-last-failure">
        {t('channels.failure.last', { time })}
      </Text>
    </Tooltip>
  );
}
