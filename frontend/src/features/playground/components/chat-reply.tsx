import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Group,
  Paper,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconCopy, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCopy } from '@/hooks/use-copy';
import type { ChatEntry } from '../hooks/use-playground-chat';
import { ReplyMarkdown } from './reply-markdown';

const STATUS_COLOR = {
  loading: 'gray',
  incomplete: 'blue',
  complete: 'green',
  error: 'red',
} as const;

interface ChatReplyProps {
  entry: ChatEntry;
  /** Asks for this reply again; absent while a reply streams. */
  onRegenerate?: () => void;
}

/**
 * One message: the user's as typed, the assistant's as Markdown with copy and regenerate buttons;
 * a reply not yet complete shows its status, a failed one its error.
 */
export function ChatReply({ entry, onRegenerate }: ChatReplyProps) {
  const { t } = useTranslation();
  const mine = entry.role === 'user';
  const settled = entry.status === 'complete' || entry.status === 'error';
  return (
    <Stack gap={4} align={mine ? 'flex-end' : 'flex-start'} data-testid={`chat-${entry.role}`}>
      <Group gap="xs">
        <Text size="xs" c="dimmed">
          {mine ? t('playground.you') : t('playground.assistant')}
        </Text>
        {entry.status && entry.status !== 'complete' && (
          <Badge size="xs" color={STATUS_COLOR[entry.status]} data-testid="reply-status">
            {t(`playground.${entry.status}`)}
          </Badge>
        )}
      </Group>
      <Paper
        withBorder
        p="sm"
        radius="md"
        maw="85%"
        miw={0}
        bg={mine ? 'var(--mantine-color-blue-light)' : undefined}
        data-status={entry.status ?? ''}
        data-testid={mine ? 'user-message' : 'assistant-message'}
      >
        {mine ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {entry.content}
          </Text>
        ) : (
          <ReplyBody entry={entry} />
        )}
      </Paper>
      {!mine && settled && <ReplyTools entry={entry} onRegenerate={onRegenerate} />}
    </Stack>
  );
}

/** The reply's text (Markdown), then its error when it failed. */
function ReplyBody({ entry }: { entry: ChatEntry }) {
  const { t } = useTranslation();
  if (!entry.content && entry.status === 'loading')
    return <Text size="sm">{t('playground.loading')}</Text>;
  return (
    <Stack gap="xs">
      {entry.content && <ReplyMarkdown content={entry.content} />}
      {entry.error && (
        <Alert color="red" variant="light" p="xs" data-testid="reply-error">
          <Text size="sm">{entry.error.message}</Text>
          {entry.error.outOfQuota && (
            <Anchor component={Link} to="/topup" size="sm" data-testid="reply-topup">
              {t('playground.topUp')}
            </Anchor>
          )}
        </Alert>
      )}
    </Stack>
  );
}

/** Copy the reply's text; ask for it again. */
function ReplyTools({ entry, onRegenerate }: ChatReplyProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  return (
    <Group gap={4}>
      {entry.content && (
        <Tooltip label={t('playground.copy')}>
          <ActionIcon
            size="sm"
            variant="subtle"
            color="gray"
            aria-label={t('playground.copy')}
            onClick={() => void copy(entry.content)}
          >
            <IconCopy size={14} />
          </ActionIcon>
        </Tooltip>
      )}
      {onRegenerate && (
        <Tooltip label={t('playground.regenerate')}>
          <ActionIcon
            size="sm"
            variant="subtle"
            color="gray"
            aria-label={t('playground.regenerate')}
            onClick={onRegenerate}
          >
            <IconRefresh size={14} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
