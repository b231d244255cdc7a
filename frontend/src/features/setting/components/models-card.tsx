import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { selfQueries } from '../api/self.api';
import { textLang } from '@/utils/text-lang';

/** The groups the user may pick (label and ratio) and the models they can call. */
export function ModelsCard() {
  const { t } = useTranslation();
  const models = useQuery(selfQueries.models());
  const groups = useQuery(selfQueries.groups());
  const names = models.data ?? [];
  const groupEntries = Object.entries(groups.data ?? {});

  return (
    <Card withBorder radius="md">
      <Title order={4} mb="md">
        {t('setting.modelsTitle')}
      </Title>
      <Stack>
        {groupEntries.length > 0 && (
          <Group gap="md" data-testid="usable-groups">
            {groupEntries.map(([group, { ratio, desc }]) => (
              <Group key={group} gap={6}>
                <Badge variant="filled">{group}</Badge>
                {desc && desc !== group && (
                  <Text size="sm" c="dimmed" lang={textLang(desc)}>
                    {desc}
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {t('setting.groupRatio', { ratio })}
                </Text>
              </Group>
            ))}
          </Group>
        )}
        {names.length === 0 ? (
          <Text c="dimmed">{models.isPending ? t('common.loading') : t('setting.noModels')}</Text>
        ) : (
          <Group gap={6} data-testid="usable-models">
            {names.map((name) => (
              <Badge key={name} variant="light" color="gray">
                {name}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
