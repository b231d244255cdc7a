import {
  Badge,
  Box,
  Button,
  Grid,
  Group,
  NumberInput,
  Paper,
  ScrollArea,
  Select,
  Slider,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selfQueries } from '@/features/setting';
import { useSessionUser } from '@/features/auth';
import {
  type ChatEntry,
  type PlaygroundSettings,
  usePlaygroundChat,
} from '../hooks/use-playground-chat';

/** Spec 001 §5: the default model when the group offers it. */
const DEFAULT_MODEL = 'gpt-4o-mini';

const STATUS_COLOR = {
  loading: 'gray',
  incomplete: 'blue',
  complete: 'green',
  error: 'red',
} as const;

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

/** /playground: settings on the left, the streaming chat on the right (spec 001 §2, §4, §5). */
export function PlaygroundPage() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const groups = useQuery(selfQueries.groups());
  const models = useQuery(selfQueries.models());
  const [settings, setSettings] = useState<PlaygroundSettings>({
    group: user?.group ?? 'default',
    model: '',
    temperature: 0.7,
    maxTokens: 0,
    systemPrompt: '',
  });
  const [input, setInput] = useState('');
  const chat = usePlaygroundChat();

  const groupOptions = useMemo(
    () =>
      Object.entries(groups.data ?? {}).map(([value, { desc }]) => ({
        value,
        label: desc ? `${value} (${desc})` : value,
      })),
    [groups.data],
  );
  // One list for every group, as new-api's playground offers it: the relay refuses a model the
  // chosen group does not reach.
  const modelOptions = useMemo(() => models.data ?? [], [models.data]);

  // Keep the chosen model valid for the group; prefer gpt-4o-mini when it is offered.
  useEffect(() => {
    if (modelOptions.includes(settings.model)) return;
    const model = modelOptions.includes(DEFAULT_MODEL) ? DEFAULT_MODEL : (modelOptions[0] ?? '');
    setSettings((s) => ({ ...s, model }));
  }, [modelOptions, settings.model]);

  const send = () => {
    const text = input;
    if (!text.trim() || chat.busy) return;
    setInput('');
    void chat.send(text, settings);
  };

  return (
    <Stack>
      <Title order={2}>{t('playground.title')}</Title>
      <Grid>
        <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
          <Paper withBorder p="md" radius="md">
            <Stack>
              <Select
                label={t('playground.group')}
                data={groupOptions}
                value={settings.group}
                onChange={(group) => group && setSettings((s) => ({ ...s, group }))}
                allowDeselect={false}
                data-testid="playground-group"
              />
              <Select
                label={t('playground.model')}
                data={modelOptions}
                value={settings.model || null}
                onChange={(model) => model && setSettings((s) => ({ ...s, model }))}
                placeholder={modelOptions.length === 0 ? t('playground.noModel') : undefined}
                allowDeselect={false}
                searchable
                data-testid="playground-model"
              />
              <Box>
                <Text size="sm" fw={500}>
                  {t('playground.temperature')}: {settings.temperature.toFixed(1)}
                </Text>
                <Slider
                  min={0.1}
                  max={1}
                  step={0.1}
                  value={settings.temperature}
                  onChange={(temperature) => setSettings((s) => ({ ...s, temperature }))}
                  label={(v) => v.toFixed(1)}
                  aria-label={t('playground.temperature')}
                />
              </Box>
              <NumberInput
                label={t('playground.maxTokens')}
                description={t('playground.maxTokensHint')}
                min={0}
                allowDecimal={false}
                value={settings.maxTokens}
                onChange={(v) =>
                  setSettings((s) => ({ ...s, maxTokens: typeof v === 'number' && v > 0 ? v : 0 }))
                }
              />
              <Textarea
                label={t('playground.systemPrompt')}
                placeholder={t('playground.systemPromptPlaceholder')}
                autosize
                minRows={3}
                value={settings.systemPrompt}
                onChange={(e) => {
                  const systemPrompt = e.currentTarget.value;
                  setSettings((s) => ({ ...s, systemPrompt }));
                }}
              />
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
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
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
