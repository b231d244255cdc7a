import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18n } from '@/lib/i18n';

/** Root with its bootstrap password is told to change it at once. */
export function openDefaultPasswordModal(onChangeNow: () => void): void {
  const id = modals.open({
    title: i18n.t('auth.defaultPasswordTitle'),
    centered: true,
    children: (
      <>
        <Text>{i18n.t('auth.defaultPasswordBody')}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => modals.close(id)}>
            {i18n.t('common.later')}
          </Button>
          <Button
            color="red"
            onClick={() => {
              modals.close(id);
              onChangeNow();
            }}
          >
            {i18n.t('auth.changePasswordNow')}
          </Button>
        </Group>
      </>
    ),
  });
}
