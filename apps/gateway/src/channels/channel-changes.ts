import { splitList, type ChannelChanges } from '@tollgate/domain';
import type { ChannelFieldsBody } from './channels.dto';

/** Wire fields → the decider's changes. Absent fields stay absent (keep / default). */
export function toChannelChanges(body: ChannelFieldsBody): ChannelChanges {
  const changes: { -readonly [K in keyof ChannelChanges]: ChannelChanges[K] } = {};
  if (body.type !== undefined) changes.type = body.type;
  if (body.name !== undefined) changes.name = body.name;
  if (body.base_url !== undefined) changes.baseUrl = body.base_url;
  if (body.other !== undefined) changes.other = body.other;
  if (body.models !== undefined) changes.models = splitList(body.models);
  if (body.group !== undefined) changes.groups = splitList(body.group);
  if (body.model_mapping !== undefined) changes.modelMapping = body.model_mapping;
  if (body.status_code_mapping !== undefined) changes.statusCodeMapping = body.status_code_mapping;
  if (body.priority !== undefined) changes.priority = body.priority;
  if (body.weight !== undefined) changes.weight = body.weight;
  if (body.auto_ban !== undefined) changes.autoBan = body.auto_ban === 1;
  if (body.test_model !== undefined) changes.testModel = body.test_model;
  if (body.openai_organization !== undefined) changes.openaiOrganization = body.openai_organization;
  if (body.max_input_tokens !== undefined) changes.maxInputTokens = body.max_input_tokens;
  if (body.tag !== undefined) changes.tag = body.tag;
  if (body.setting !== undefined) changes.setting = body.setting;
  if (body.param_override !== undefined) changes.paramOverride = body.param_override;
  return changes;
}
