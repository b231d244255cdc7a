import { Button, Group } from '@mantine/core';
import { IconCopy, IconPlus } from '@tabler/icons-react';
import { useCopy } from '@/hooks/use-copy';
import { notifyError } from '@/lib/notify';

interface AddCopyToolbarProps<TRow> {
  addLabel: string;
  onAdd: () => void;
  copyLabel: string;
  /** Copying needs at least one selected row; this is the message otherwise. */
  noneSelected: string;
  /** The selected rows, read when the copy button is pressed. */
  selected: () => TRow[];
  /** One line of the copied text per row. */
  line: (row: TRow) => string;
}

/** The add and copy-selected buttons above the token and redemption code tables. */
export function AddCopyToolbar<TRow>({
  addLabel,
  onAdd,
  copyLabel,
  noneSelected,
  selected,
  line,
}: AddCopyToolbarProps<TRow>) {
  const copy = useCopy();
  const copySelected = () => {
    const rows = selected();
    if (rows.length === 0) return notifyError(noneSelected);
    void copy(rows.map(line).join('\n'));
  };
  return (
    <Group gap="sm">
      <Button leftSection={<IconPlus size={16} />} onClick={onAdd}>
        {addLabel}
      </Button>
      <Button variant="light" leftSection={<IconCopy size={16} />} onClick={copySelected}>
        {copyLabel}
      </Button>
    </Group>
  );
}
