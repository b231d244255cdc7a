import { Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The light badge every status tag of the console draws. It keeps its whole text (miw
 * max-content): a narrow table scrolls instead of cutting it.
 */
export function StatusBadge({
  color,
  children,
  ...rest
}: Omit<BadgeProps, 'variant' | 'miw'> & { color: string; children: ReactNode }) {
  return (
    <Badge miw="max-content" variant="light" color={color} {...rest}>
      {children}
    </Badge>
  );
}
