import { ActionIcon, Button, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCopy } from '@/hooks/use-copy';
import { useGenerateAccessToken } from '../hooks/use-generate-access-token';

/** The system access token, for calling the console API from scripts. */
export function AccessTokenCard() {
  const { t } = useTranslation();
  const generate = useGenerateAccessToken();
  const copy = useCopy();

  return (
    <Card withBorder radius="md">
      <Title order={4} mb="md">
        {t('setting.accessTokenTitle')}
      </Title>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('setting.accessTokenHint')}
        </Text>
        {generate.data && (
          <TextInput
            value={generate.data}
            readOnly
            data-testid="access-token"
            rightSection={
              <ActionIcon
                variant="subtle"
                aria-label={t('common.copy')}
                onClick={() => void copy(generate.data)}
              >
                <IconCopy size={16} />
              </ActionIcon>
            }
          />
        )}
        <Button variant="light" loading={generate.isPending} onClick={() => generate.mutate()}>
          {t('setting.generateAccessToken')}
        </Button>
      </Stack>
    </Card>
  );
}
