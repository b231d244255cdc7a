import { Button, Group, Paper, ScrollArea, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlaygroundSettings, usePlaygroundChat } from '../hooks/use-playground-chat';
import { ChatReply } from './chat-reply';

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
              <ChatReply
                key={entry.id}
                entry={entry}
                onRegenerate={
                  chat.busy ? undefined : () => void chat.regenerate(entry.id, settings)
                }
              />
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
