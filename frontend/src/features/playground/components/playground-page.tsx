import { Grid, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePlaygroundChat } from '../hooks/use-playground-chat';
import { usePlaygroundSettings } from '../hooks/use-playground-settings';
import { ChatPanel } from './chat-panel';
import { SettingsPanel } from './settings-panel';

/** /playground: settings on the left, the streaming chat on the right. */
export function PlaygroundPage() {
  const { t } = useTranslation();
  const form = usePlaygroundSettings();
  const chat = usePlaygroundChat();

  return (
    <Stack>
      <Title order={2}>{t('playground.title')}</Title>
      <Grid>
        <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
          <SettingsPanel form={form} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
          <ChatPanel chat={chat} settings={form.settings} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
