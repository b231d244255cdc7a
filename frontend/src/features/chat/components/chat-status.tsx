import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/** What a chat page shows instead of the chat: a configuration problem, or a wait. */
export function ChatStatus({ message, waiting }: { message: string; waiting?: boolean }) {
  if (!waiting) {
    return (
      <Center py={60} px="md">
        <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert" maw={520}>
          {message}
        </Alert>
      </Center>
    );
  }
  return (
    <Center py={60}>
      <Stack align="center" gap="xs">
        <Loader />
        <Text c="dimmed">{message}</Text>
      </Stack>
    </Center>
  );
}
