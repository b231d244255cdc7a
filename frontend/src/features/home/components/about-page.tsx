import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RichContent } from '@/components/rich-content';
import { contentQueries } from '../api/content.api';

/** The gateway's own rendered reference of its HTTP API (server-side, no sign-in needed). */
const API_REFERENCE_URL = '/api/docs';

export function AboutPage() {
  const { t } = useTranslation();
  const { data: about, isPending } = useQuery(contentQueries.about());
  if (isPending) return null;

  const reference = (
    <Anchor href={API_REFERENCE_URL} target="_blank" rel="noopener">
      {t('about.apiReference')}
    </Anchor>
  );
  if (about)
    return (
      <Stack>
        <RichContent content={about} />
        {reference}
      </Stack>
    );

  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} mb="sm">
        {t('shell.about')}
      </Title>
      <Text mb="sm">{t('about.empty')}</Text>
      {reference}
    </Paper>
  );
}
