import { Paper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RichContent } from '@/components/rich-content';
import { contentQueries } from '../api/content.api';

export function AboutPage() {
  const { t } = useTranslation();
  const { data: about, isPending } = useQuery(contentQueries.about());
  if (isPending) return null;
  if (about) return <RichContent content={about} />;

  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} mb="sm">
        {t('shell.about')}
      </Title>
      <Text>{t('about.empty')}</Text>
    </Paper>
  );
}
