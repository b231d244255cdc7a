import { Badge, Stack, Text, Tooltip } from '@mantine/core';
import { ChannelStatus, parseChannelOtherInfo, type ChannelDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '@/components/status-badge';
import { formatUnixTime } from '../utils/channel-display';

/** Status tag: enabled, disabled by hand, disabled automatically (with the reason and time). */
export function ChannelStatusTag({
  channel,
}: {
  channel: Pick<ChannelDto, 'status' | 'other_info'>;
}) {
  const { t } = useTranslation();
  switch (channel.status) {
    case ChannelStatus.Enabled:
      return <StatusBadge color="green">{t('channels.status.enabled')}</StatusBadge>;
    case ChannelStatus.ManuallyDisabled:
      return <StatusBadge color="red">{t('channels.status.manuallyDisabled')}</StatusBadge>;
    case ChannelStatus.AutoDisabled: {
      const info = parseChannelOtherInfo(channel.other_info);
      const time = formatUnixTime(info.status_time ?? 0);
      const label = (
        <Stack gap={2}>
          {info.status_reason && (
            <Text size="xs">{t('channels.statusReason', { reason: info.status_reason })}</Text>
          )}
          {time && <Text size="xs">{t('channels.statusTime', { time })}</Text>}
        </Stack>
      );
      return (
        <Tooltip label={label} disabled={!info.status_reason && !time} multiline maw={320}>
          {/* A Mantine Badge itself: the Tooltip attaches its ref to this child. */}
          <Badge miw="max-content" variant="light" color="yellow" style={{ cursor: 'help' }}>
            {t('channels.status.autoDisabled')}
          </Badge>
        </Tooltip>
      );
    }
    default:
      return <StatusBadge color="gray">{t('channels.status.unknown')}</StatusBadge>;
  }
}
