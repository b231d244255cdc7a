import { Autocomplete, NumberInput, SimpleGrid, Switch, Textarea, TextInput } from '@mantine/core';
import {
  MODEL_MAPPING_TEMPLATE,
  PARAM_OVERRIDE_TEMPLATE,
  STATUS_CODE_MAPPING_TEMPLATE,
} from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useFieldError } from '@/hooks/field-errors-context';
import type { SetChannelField } from '../../hooks/use-channel-form-state';
import type { ChannelFormValues } from '../../utils/channel-form';
import { MIN_PRIORITY, MIN_WEIGHT } from '../../utils/channel-numbers';
import { JsonField } from './json-field';

interface RoutingFieldsProps {
  values: ChannelFormValues;
  set: SetChannelField;
}

/** How the relay uses the channel: mappings, test model, tag, priority, weight, limits, auto-ban. */
export function ChannelRoutingFields({ values, set }: RoutingFieldsProps) {
  const { t } = useTranslation();
  const settingFault = useFieldError('setting');
  return (
    <>
      <JsonField
        label={t('channels.form.modelMapping')}
        placeholder={t('channels.form.modelMappingPlaceholder')}
        value={values.model_mapping}
        onChange={(value) => set('model_mapping', value)}
        template={MODEL_MAPPING_TEMPLATE}
        field="model_mapping"
        templateLabel={t('channels.form.fillTemplate')}
      />
      <JsonField
        label={t('channels.form.statusCodeMapping')}
        placeholder={t('channels.form.statusCodeMappingPlaceholder')}
        value={values.status_code_mapping}
        onChange={(value) => set('status_code_mapping', value)}
        template={STATUS_CODE_MAPPING_TEMPLATE}
        field="status_code_mapping"
        templateLabel={t('channels.form.fillTemplate')}
      />
      <JsonField
        label={t('channels.form.paramOverride')}
        placeholder={t('channels.form.paramOverridePlaceholder')}
        value={values.param_override}
        onChange={(value) => set('param_override', value)}
        template={PARAM_OVERRIDE_TEMPLATE}
        field="param_override"
        templateLabel={t('channels.form.fillTemplate')}
      />
      <ChannelNumberFields values={values} set={set} />
      <Textarea
        label={t('channels.form.setting')}
        {...settingFault}
        placeholder={t('channels.form.settingPlaceholder')}
        autosize
        minRows={2}
        value={values.setting}
        onChange={(event) => set('setting', event.currentTarget.value)}
      />
      <Switch
        label={t('channels.form.autoBan')}
        description={t('channels.form.autoBanHint')}
        checked={values.auto_ban}
        onChange={(event) => set('auto_ban', event.currentTarget.checked)}
      />
    </>
  );
}

function ChannelNumberFields({ values, set }: RoutingFieldsProps) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={2}>
      <Autocomplete
        label={t('channels.form.testModel')}
        placeholder={t('channels.form.testModelPlaceholder')}
        data={values.models}
        value={values.test_model}
        onChange={(value) => set('test_model', value)}
      />
      <TextInput
        label={t('channels.form.tag')}
        placeholder={t('channels.form.tagPlaceholder')}
        value={values.tag}
        onChange={(event) => set('tag', event.currentTarget.value)}
      />
      <NumberInput
        label={t('channels.form.priority')}
        description={t('channels.priorityHint')}
        value={values.priority}
        onChange={(value) => set('priority', value)}
        min={MIN_PRIORITY}
        allowDecimal={false}
      />
      <NumberInput
        label={t('channels.form.weight')}
        description={t('channels.weightHint')}
        value={values.weight}
        onChange={(value) => set('weight', value)}
        min={MIN_WEIGHT}
        allowDecimal={false}
      />
      <NumberInput
        label={t('channels.form.maxInputTokens')}
        description={t('channels.form.maxInputTokensHint')}
        value={values.max_input_tokens}
        onChange={(value) => set('max_input_tokens', Number(value) || 0)}
        min={0}
        allowDecimal={false}
      />
    </SimpleGrid>
  );
}
