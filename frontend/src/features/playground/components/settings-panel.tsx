import { Box, NumberInput, Paper, Select, Slider, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { usePlaygroundSettings } from '../hooks/use-playground-settings';

/** The playground's left column: group, model, temperature, max tokens, system prompt. */
export function SettingsPanel({ form }: { form: ReturnType<typeof usePlaygroundSettings> }) {
  const { t } = useTranslation();
  const { settings, change, groupOptions, modelOptions } = form;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <Select
          label={t('playground.group')}
          data={groupOptions}
          value={settings.group}
          onChange={(group) => group && change('group', group)}
          allowDeselect={false}
          data-testid="playground-group"
        />
        <Select
          label={t('playground.model')}
          data={modelOptions}
          value={settings.model || null}
          onChange={(model) => model && change('model', model)}
          placeholder={modelOptions.length === 0 ? t('playground.noModel') : undefined}
          allowDeselect={false}
          searchable
          data-testid="playground-model"
        />
        <Box>
          <Text size="sm" fw={500}>
            {t('playground.temperature')}: {settings.temperature.toFixed(1)}
          </Text>
          <Slider
            min={0.1}
            max={1}
            step={0.1}
            value={settings.temperature}
            onChange={(temperature) => change('temperature', temperature)}
            label={(v) => v.toFixed(1)}
            aria-label={t('playground.temperature')}
          />
        </Box>
        <NumberInput
          label={t('playground.maxTokens')}
          description={t('playground.maxTokensHint')}
          min={0}
          allowDecimal={false}
          value={settings.maxTokens}
          // 0 = not sent: the model's own limit applies.
          onChange={(v) => change('maxTokens', typeof v === 'number' && v > 0 ? v : 0)}
        />
        <Textarea
          label={t('playground.systemPrompt')}
          placeholder={t('playground.systemPromptPlaceholder')}
          autosize
          minRows={3}
          value={settings.systemPrompt}
          onChange={(e) => change('systemPrompt', e.currentTarget.value)}
        />
      </Stack>
    </Paper>
  );
}
