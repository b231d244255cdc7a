import { Badge, Tooltip } from '@mantine/core';
import { responseTimeBand, type ChannelDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { formatUnixTime } from '../utils/channel-display';

/** Response time colour bands: 0 untested; ≤1 s green; ≤3 s lime; ≤5 s yellow; above red. */
export function ResponseTimeTag({
  channel,
}: {
  channel: Pick<ChannelDto, 'response_time' | 'test_time'>;
}) {
  const { t, i18n } = useTranslation();
  const band = responseTimeBand(channel.response_time);
  if (band === 'untested') {
    return (
      <Badge miw="max-content" variant="light" color="gray" data-band={band}>
        {t('channels.responseTime.untested')}
      </Badge>
    );
  }
  const testedAt = formatUnixTime(channel.test_time, i18n.language);
  return (
    <Tooltip label={t('channels.responseTime.testedAt', { time: testedAt })} disabled={!testedAt}>
      <Badge miw="max-content" variant="light" color={band} data-band={band}>
        {t('channels.responseTime.seconds', { seconds: (channel.response_time / 1000).toFixed(2) })}
      </Badge>
    </Tooltip>
  );
}
