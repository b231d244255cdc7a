import { Anchor, Badge, Group } from '@mantine/core';
import type { LogDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { firstTokenColor, requestTimeColor } from '../utils/latency';
import { parseOther } from '../utils/log-other';

/** Time taken, time to the first token of a stream, and whether it streamed; coloured by speed. */
export function UseTime({ log }: { log: LogDto }) {
  const { t } = useTranslation();
  const other = parseOther(log.other);
  // `frt` is recorded in milliseconds, the colour bands are in seconds.
  const firstToken = typeof other.frt === 'number' && other.frt > 0 ? other.frt / 1000 : null;
  const timeColor = requestTimeColor(log.use_time);
  const firstColor = firstToken === null ? undefined : firstTokenColor(firstToken);
  return (
    <Group gap={4} wrap="nowrap">
      <Badge variant="light" color={timeColor} data-color={timeColor}>
        {t('logs.seconds', { value: log.use_time })}
      </Badge>
      {log.is_stream && firstToken !== null && (
        <Badge variant="light" color={firstColor} data-color={firstColor}>
          {t('logs.firstToken', { value: firstToken.toFixed(1) })}
        </Badge>
      )}
      <Badge variant="outline" color={log.is_stream ? 'blue' : 'gray'}>
        {log.is_stream ? t('logs.stream') : t('logs.notStream')}
      </Badge>
    </Group>
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
