import { Badge, Button, Group, Paper, ScrollArea, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type ChatEntry,
  type PlaygroundSettings,
  type usePlaygroundChat,
} from '../hooks/use-playground-chat';

const STATUS_COLOR = {
  loading: 'gray',
  incomplete: 'blue',
  complete: 'green',
  error: 'red',
} as const;

interface ChatPanelProps {
  chat: ReturnType<typeof usePlaygroundChat>;
  settings: PlaygroundSettings;
}

/** The playground's right column: the conversation, the message box, clear and send / stop. */
export function ChatPanel({ chat, settings }: ChatPanelProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');

  const send = () => {
    const text = input;
    if (!text.trim() || chat.busy) return;
    setInput('');
    void chat.send(text, settings);
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <ScrollArea h={480} data-testid="playground-chat">
          <Stack p="xs">
            {chat.entries.length === 0 && (
              <Text c="dimmed" ta="center" mt="xl">
                {t('playground.empty')}
              </Text>
            )}
            {chat.entries.map((entry) => (
              <Reply key={entry.id} entry={entry} />
            ))}
          </Stack>
        </ScrollArea>
        <Textarea
          placeholder={t('playground.placeholder')}
          autosize
          minRows={2}
          maxRows={8}
          value={input}
          onChange={(e) => setInput(e.currentTarget.value)}
          // Enter sends, Shift+Enter breaks the line; not while an input method composes.
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
          data-testid="playground-input"
        />
        <Group justify="space-between">
          <Button variant="default" onClick={chat.clear} data-testid="playground-clear">
            {t('playground.clear')}
          </Button>
          {chat.busy ? (
            <Button color="red" variant="light" onClick={chat.stop}>
              {t('playground.stop')}
            </Button>
          ) : (
            <Button
              onClick={send}
              disabled={!input.trim() || !settings.model}
              data-testid="playground-send"
            >
              {t('playground.send')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** One message; a reply not yet complete shows its status. */
function Reply({ entry }: { entry: ChatEntry }) {
  const { t } = useTranslation();
  const mine = entry.role === 'user';
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
        bg={mine ? 'var(--mantine-color-blue-light)' : undefined}
        data-status={entry.status ?? ''}
        data-testid={mine ? 'user-message' : 'assistant-message'}
      >
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {entry.content || (entry.status === 'loading' ? t('playground.loading') : '')}
        </Text>
      </Paper>
    </Stack>
  );
}
