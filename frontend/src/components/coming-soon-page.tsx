import { Center, Stack, Text, Title } from '@mantine/core';
import { IconHourglassEmpty } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Stands in for screens that later issues build; the route and its sidebar item exist now. */
export function ComingSoonPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Center py={60}>
      <Stack align="center" gap="xs">
        <IconHourglassEmpty size={48} stroke={1.2} />
        <Title order={2}>{title}</Title>
        <Text c="dimmed">{t('common.comingSoon')}</Text>
      </Stack>
    </Center>
  );
}
