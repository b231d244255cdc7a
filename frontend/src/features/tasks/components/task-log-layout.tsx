import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface TaskLogLayoutProps {
  title: string;
  /** Between the title and the card (the drawing log's callback banner); falsy shows nothing. */
  notice?: ReactNode;
  /** The filter bar and the table. */
  children: ReactNode;
}

/** The frame of a task log page: its title, an optional notice, and the card below. */
export function TaskLogLayout({ title, notice, children }: TaskLogLayoutProps) {
  return (
    <Stack>
      <Title order={2}>{title}</Title>
      {notice}
      <Paper withBorder p="md" radius="md">
        <Stack>{children}</Stack>
      </Paper>
    </Stack>
  );
}
