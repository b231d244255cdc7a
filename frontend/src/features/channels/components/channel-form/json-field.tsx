import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useId } from 'react';
import { useFieldError } from '@/hooks/field-errors-context';

interface JsonFieldProps {
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  /** Filled in by the template button beside the label. */
  template: string;
  templateLabel: string;
  /** The form field it edits, for the form's faults. */
  field: string;
}

/** A JSON text field with a "fill template" button beside its label (kept outside the label). */
export function JsonField({
  label,
  placeholder,
  value,
  onChange,
  template,
  templateLabel,
  field,
}: JsonFieldProps) {
  const id = useId();
  const fault = useFieldError(field);
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text component="label" htmlFor={id} size="sm" fw={500}>
          {label}
        </Text>
        <Button size="compact-xs" variant="subtle" onClick={() => onChange(template)}>
          {templateLabel}
        </Button>
      </Group>
      <Textarea
        id={id}
        placeholder={placeholder}
        autosize
        minRows={2}
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        {...fault}
      />
    </Stack>
  );
}
