import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { ChannelDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '@/features/status';
import type { ChannelPollState } from '../api/channels.api';
import { formatUnixTime } from '../utils/channel-display';
import { ChannelPollBadge } from './channel-poll-badge';
import { ChannelStatusTag } from './channel-status-tag';

/** The channel's name, with its tag below when it has one. */
export function ChannelNameCell({ channel }: { channel: ChannelDto }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {channel.name}
      </Text>
      {channel.tag && (
        <Text size="xs" c="dimmed">
          {channel.tag}
        </Text>
      )}
    </Stack>
  );
}

/** Enabled/disabled, and for a task channel the poller's state beside it. */
export function ChannelStatusCell({
  channel,
  poll,
}: {
  channel: ChannelDto;
  poll: ChannelPollState | undefined;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      <ChannelStatusTag channel={channel} />
      <ChannelPollBadge state={poll} />
    </Group>
  );
}

/** Quota used through the channel, and the upstream balance with when it was last read. */
export function ChannelBalanceCell({ channel }: { channel: ChannelDto }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const updatedAt = formatUnixTime(channel.balance_updated_time);
  return (
    <Stack gap={4} align="flex-start">
      <Tooltip label={t('channels.usedQuota')}>
        <Badge miw="max-content" variant="light" color="gray">
          {formatQuota(channel.used_quota)}
        </Badge>
      </Tooltip>
      <Tooltip
        label={
          updatedAt ? t('channels.balanceUpdatedAt', { time: updatedAt }) : t('channels.balance')
        }
      >
        <Badge miw="max-content" variant="light" color="blue" data-testid="channel-balance">
          ${(channel.balance ?? 0).toFixed(2)}
        </Badge>
      </Tooltip>
    </Stack>
  );
}
