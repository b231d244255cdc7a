import { NumberInput, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { normalizeChannelNumber } from '../utils/channel-numbers';

interface InlineNumberCellProps {
  value: number;
  minimum: number;
  label: string;
  hint: string;
  disabled?: boolean;
  onCommit: (value: number) => void;
}

/**
 * Priority and weight edited in the row: saved on blur or Enter when the value changed, clamped
 * to its minimum; an empty field is ignored and shows the stored value again.
 */
export function InlineNumberCell({
  value,
  minimum,
  label,
  hint,
  disabled,
  onCommit,
}: InlineNumberCellProps) {
  const [draft, setDraft] = useState<string | number>(value);

  const commit = () => {
    const next = normalizeChannelNumber(draft, minimum);
    if (next === null) return setDraft(value);
    setDraft(next);
    if (next !== value) onCommit(next);
  };

  return (
    <Tooltip label={hint} openDelay={500}>
      <NumberInput
        size="xs"
        w={72}
        aria-label={label}
        value={draft}
        onChange={setDraft}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.currentTarget.blur();
        }}
        allowDecimal={false}
        disabled={disabled}
        hideControls
      />
    </Tooltip>
  );
}
