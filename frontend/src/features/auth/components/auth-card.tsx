import { Center, Group, Image, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useStatus } from '@/features/status';

/** The frame every sign-in screen shares: logo, title, one narrow card. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { logo } = useStatus();
  return (
    <Center py="xl">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440}>
        <Stack>
          <Group justify="center" gap="sm">
            <Image src={logo || '/logo.png'} alt="" w={36} h={36} />
            <Title order={2}>{title}</Title>
          </Group>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
