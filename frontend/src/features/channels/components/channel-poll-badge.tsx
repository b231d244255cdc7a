import { Badge, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChannelPollState } from '../api/channels.api';
import { formatUnixTime } from '../utils/channel-display';

/** Poll times are unix milliseconds; the page formats unix seconds. */
const formatMs = (ms: number) => formatUnixTime(Math.floor(ms / 1000));

/**
 * Beside the status of a Midjourney / Suno channel: an orange badge while its task polling fails
 * (the last error and the next try in a tooltip), else a quiet count of its open tasks.
 */
export function ChannelPollBadge({ state }: { state: ChannelPollState | undefined }) {
  const { t } = useTranslation();
  if (!state) return null;
  if (state.failures > 0) {
    const nextPoll = formatMs(state.next_poll_at);
    const lastSuccess = formatMs(state.last_success_at);
    const label = (
      <Stack gap={2}>
        {state.last_error && (
          <Text size="xs">{t('channels.poll.lastError', { error: state.last_error })}</Text>
        )}
        {nextPoll && <Text size="xs">{t('channels.poll.nextPoll', { time: nextPoll })}</Text>}
        <Text size="xs">
          {lastSuccess
            ? t('channels.poll.lastSuccess', { time: lastSuccess })
            : t('channels.poll.neverSucceeded')}
        </Text>
      </Stack>
    );
    return (
      // Hover, keyboard focus and touch all open it: the details are not for mouse users only.
      <Tooltip label={label} multiline maw={360} events={{ hover: true, focus: true, touch: true }}>
        {/* A Mantine Badge itself: the Tooltip attaches its ref to this child. */}
        <Badge
          tabIndex={0}
          miw="max-content"
          variant="light"
          color="orange"
          style={{ cursor: 'help' }}
          data-testid="channel-poll-failing"
        >
          {t('channels.poll.failing', { n: state.failures })}
        </Badge>
      </Tooltip>
    );
  }
  if (state.open_tasks > 0) {
    return (
      <Badge miw="max-content" variant="light" color="gray" data-testid="channel-poll-open">
        {t('channels.poll.openTasks', { n: state.open_tasks })}
      </Badge>
    );
  }
  return null;
}
