import { TextInput } from '@mantine/core';

interface TimeRangeInputsProps {
  /** useDraft's `bind` of a draft holding `start` and `end`. */
  bind: (name: 'start' | 'end') => {
    value: string;
    onChange: (event: { currentTarget: { value: string } }) => void;
  };
  /** Each feature keeps its own texts. */
  labels: { start: string; end: string; placeholder: string };
}

/** The start and end fields of a filter bar; a fragment, so each takes its own grid cell. */
export function TimeRangeInputs({ bind, labels }: TimeRangeInputsProps) {
  return (
    <>
      <TextInput label={labels.start} placeholder={labels.placeholder} {...bind('start')} />
      <TextInput label={labels.end} placeholder={labels.placeholder} {...bind('end')} />
    </>
  );
}
