import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { selfQueries } from '../api/self.api';
import { textLang } from '@/utils/text-lang';

/** The models the user may call, per group. */
export function ModelsCard() {
  const { t } = useTranslation();
  const models = useQuery(selfQueries.models());
  const groups = useQuery(selfQueries.groups());
  const entries = Object.entries(models.data ?? {});

  return (
    <Card withBorder radius="md">
      <Title order={4} mb="md">
        {t('setting.modelsTitle')}
      </Title>
      {entries.length === 0 ? (
        <Text c="dimmed">{models.isPending ? t('common.loading') : t('setting.noModels')}</Text>
      ) : (
        <Stack>
          {entries.map(([group, names]) => (
            <Stack key={group} gap={6}>
              <Group gap="xs">
                <Badge variant="filled">{group}</Badge>
                {groups.data?.[group] && (
                  <Text size="sm" c="dimmed" lang={textLang(groups.data[group])}>
                    {groups.data[group]}
                  </Text>
                )}
              </Group>
              {names.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('setting.noModels')}
                </Text>
              ) : (
                <Group gap={6}>
                  {names.map((name) => (
                    <Badge key={name} variant="light" color="gray">
                      {name}
                    </Badge>
                  ))}
                </Group>
              )}
            </Stack>
          ))}
        </Stack>
      )}
    </Card>
  );
}
