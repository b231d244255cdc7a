import { TextInput } from '@mantine/core';
import { formatDateTime, parseDateTime } from '@/utils/date-time';

/** Unix seconds → the value of a datetime-local input (seconds included). */
export const toInputValue = (seconds: number) => formatDateTime(seconds).replace(' ', 'T');

/**
 * The input's value → unix seconds, or null when it is empty or not a real date. Browsers may
 * add milliseconds (`…T12:30:15.000`): they are dropped.
 */
export const fromInputValue = (value: string) =>
  value ? parseDateTime(value.replace(/\.\d+$/, '')) : null;

interface DateTimeInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
}

/** The browser's own date-time picker, styled by Mantine (the console has no @mantine/dates). */
export function DateTimeInput({ label, value, onChange, testId }: DateTimeInputProps) {
  return (
    <TextInput
      type="datetime-local"
      label={label}
      value={value}
      step={1}
      onChange={(event) => onChange(event.currentTarget.value)}
      data-testid={testId}
    />
  );
}
