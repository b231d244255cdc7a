import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center py={60}>
      <Stack align="center" gap="sm">
        <Title order={1}>404</Title>
        <Title order={2}>{t('notFound.title')}</Title>
        <Text c="dimmed">{t('notFound.hint')}</Text>
        <Button component={Link} to="/" variant="light">
          {t('notFound.home')}
        </Button>
      </Stack>
    </Center>
  );
}
