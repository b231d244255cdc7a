import { Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SubjectHistory } from './subject-history';

const OPTIONS = { kind: 'options' } as const;

/** Settings page: who changed which option and when (secrets only as "changed"). */
export function OptionsHistoryCard() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="options-history-title">
      <Stack>
        <Stack gap={4}>
          <Title order={4} id="options-history-title">
            {t('history.optionsCard.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('history.optionsCard.hint')}
          </Text>
        </Stack>
        <SubjectHistory subject={OPTIONS} />
      </Stack>
    </Card>
  );
}
