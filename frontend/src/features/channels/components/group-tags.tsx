import { Badge, Group } from '@mantine/core';
import { groupColor, splitList } from '../utils/channel-display';

/** A channel's groups as small colour tags. */
export function GroupTags({ groups }: { groups: string }) {
  const names = splitList(groups);
  return (
    <Group gap={4}>
      {(names.length > 0 ? names : ['default']).map((name) => (
        <Badge
          miw="max-content"
          key={name}
          size="sm"
          variant="light"
          color={groupColor(name)}
          tt="none"
        >
          {name}
        </Badge>
      ))}
    </Group>
  );
}
