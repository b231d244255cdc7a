import { Stack } from '@mantine/core';
import { ClearLogs } from './clear-logs';
import {
  CHATS_FIELDS,
  DASHBOARD_FIELDS,
  DRAWING_FIELDS,
  GENERAL_FIELDS,
  LOG_FIELDS,
  MODEL_CLAUDE_FIELDS,
  MODEL_GEMINI_FIELDS,
  MODEL_GLOBAL_FIELDS,
  MONITORING_FIELDS,
  QUOTA_FIELDS,
  RATE_LIMIT_FIELDS,
  RATIO_FIELDS,
  SENSITIVE_FIELDS,
} from './operation-fields';
import { OptionsCard } from './options-card';
import { PriceTableCard } from './price-table-card';

/** /setting?tab=operation (super administrator). */
export function OperationTab() {
  return (
    <Stack>
      <OptionsCard name="general" fields={GENERAL_FIELDS} columns={3} />
      <OptionsCard name="drawing" fields={DRAWING_FIELDS} columns={3} />
      <OptionsCard name="sensitive" fields={SENSITIVE_FIELDS} />
      <OptionsCard name="log" fields={LOG_FIELDS}>
        <ClearLogs />
      </OptionsCard>
      <OptionsCard name="dashboard" fields={DASHBOARD_FIELDS} />
      <OptionsCard name="monitoring" fields={MONITORING_FIELDS} />
      <OptionsCard name="rateLimit" fields={RATE_LIMIT_FIELDS} columns={3} />
      <OptionsCard name="quota" fields={QUOTA_FIELDS} columns={4} />
      <OptionsCard name="chats" fields={CHATS_FIELDS} />
      <PriceTableCard />
      <OptionsCard name="ratio" fields={RATIO_FIELDS} />
      <OptionsCard name="modelGlobal" hint="modelGlobal" fields={MODEL_GLOBAL_FIELDS} />
      <OptionsCard name="modelGemini" fields={MODEL_GEMINI_FIELDS} />
      <OptionsCard name="modelClaude" fields={MODEL_CLAUDE_FIELDS} />
    </Stack>
  );
}
