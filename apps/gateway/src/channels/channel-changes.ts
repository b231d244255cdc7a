import { splitList, type ChannelChanges } from '@tollgate/domain';
import type { ChannelFieldsBody } from './channels.dto';

/**
 * Wire fields → the decider's changes. Absent fields stay absent (keep / default); null strings
 * clear; empty priority and weight are ignored.
 */
export function toChannelChanges(body: ChannelFieldsBody): ChannelChanges {
  const changes: { -readonly [K in keyof ChannelChanges]: ChannelChanges[K] } = {};
  const text = (value: string | null | undefined) =>
    value === undefined ? undefined : (value ?? '');
  if (body.type !== undefined) changes.type = body.type;
  if (body.name !== undefined) changes.name = body.name;
  if (body.base_url !== undefined) changes.baseUrl = text(body.base_url);
  if (body.other !== undefined) changes.other = text(body.other);
  if (body.models !== undefined) changes.models = splitList(body.models);
  if (body.group !== undefined) changes.groups = splitList(body.group);
  if (body.model_mapping !== undefined) changes.modelMapping = text(body.model_mapping);
  if (body.status_code_mapping !== undefined)
    changes.statusCodeMapping = text(body.status_code_mapping);
  if (body.priority !== undefined && body.priority !== null) changes.priority = body.priority;
  if (body.weight !== undefined && body.weight !== null) changes.weight = body.weight;
  if (body.auto_ban !== undefined) changes.autoBan = body.auto_ban === 1;
  if (body.test_model !== undefined) changes.testModel = text(body.test_model);
  if (body.openai_organization !== undefined)
    changes.openaiOrganization = text(body.openai_organization);
  if (body.max_input_tokens !== undefined && body.max_input_tokens !== null)
    changes.maxInputTokens = body.max_input_tokens;
  if (body.tag !== undefined) changes.tag = text(body.tag);
  if (body.setting !== undefined) changes.setting = text(body.setting);
  if (body.param_override !== undefined) changes.paramOverride = text(body.param_override);
  return changes;
}
