import { Anchor, Badge, Group, Text } from '@mantine/core';
import type { LogDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { firstTokenColor, requestTimeColor } from '../utils/latency';
import { parseOther } from '../utils/log-other';

/** Badges that keep their full width: a narrow cell grows instead of cutting them. */
const WHOLE = { flexShrink: 0, overflow: 'visible' } as const;

/** Time taken, time to the first token of a stream, and whether it streamed; coloured by speed. */
export function UseTime({ log }: { log: LogDto }) {
  const { t } = useTranslation();
  const other = parseOther(log.other);
  // `frt` is recorded in milliseconds, the colour bands are in seconds.
  const firstToken = typeof other.frt === 'number' && other.frt > 0 ? other.frt / 1000 : null;
  const timeColor = requestTimeColor(log.use_time);
  const firstColor = firstToken === null ? undefined : firstTokenColor(firstToken);
  return (
    <Group gap={4} wrap="nowrap" w="max-content" data-testid="log-use-time">
      <Badge variant="light" color={timeColor} data-color={timeColor} style={WHOLE}>
        {t('logs.seconds', { value: log.use_time })}
      </Badge>
      {log.is_stream && firstToken !== null && (
        <Badge variant="light" color={firstColor} data-color={firstColor} style={WHOLE}>
          {t('logs.firstToken', { value: firstToken.toFixed(1) })}
        </Badge>
      )}
      <Badge variant="outline" color={log.is_stream ? 'blue' : 'gray'} style={WHOLE}>
        {log.is_stream ? t('logs.stream') : t('logs.notStream')}
      </Badge>
    </Group>
  );
}

/** A name (token, model, group) shown whole: a long one breaks over lines rather than being cut. */
export function LogNameCell({ name, strong = false }: { name: string; strong?: boolean }) {
  if (!name) return '';
  return (
    <Text size="sm" fw={strong ? 500 : undefined} style={{ overflowWrap: 'anywhere' }} miw={64}>
      {name}
    </Text>
  );
}

/** The channel's present name (its id on hover); the id alone when the channel is gone. */
export function LogChannelCell({ log }: { log: LogDto }) {
  if (!log.channel) return '';
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }} miw={64} title={`#${log.channel}`}>
      {log.channel_name || `#${log.channel}`}
    </Text>
  );
}

/** The user's name, opening their details when clicked. */
export function LogUserCell({
  log,
  onUserClick,
}: {
  log: LogDto;
  onUserClick: (userId: number) => void;
}) {
  if (!log.username) return '';
  return (
    <Anchor component="button" size="sm" onClick={() => onUserClick(log.user_id)}>
      {log.username}
    </Anchor>
  );
}
