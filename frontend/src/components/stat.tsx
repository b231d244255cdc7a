import { Stack, Text, type MantineSize } from '@mantine/core';
import type { ReactNode } from 'react';

/** A labelled figure of a summary card: a dimmed label above a bold value. */
export function Stat({
  label,
  value,
  testId,
  size = 'xl',
}: {
  label: string;
  value: ReactNode;
  testId?: string;
  size?: MantineSize;
}) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size={size} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}
