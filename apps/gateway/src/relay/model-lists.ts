/**
 * The model list in each client protocol's shape: OpenAI's `{object: 'list', data}`, Anthropic's
 * paged `{data, has_more, first_id, last_id}`, Gemini's `{models: [{name: 'models/…'}]}`.
 */
import type { IngressKind } from '@tollgate/relay';

/** When the models were "created" (one-api and new-api answer a fixed date too). */
const MODEL_CREATED = 1626777600;
const CREATED_AT = new Date(MODEL_CREATED * 1000).toISOString();

export function modelEntry(id: string, format: IngressKind | 'openai'): Record<string, unknown> {
  switch (format) {
    case 'anthropic':
      return { type: 'model', id, display_name: id, created_at: CREATED_AT };
    case 'gemini':
      return {
        name: `models/${id}`,
        version: '001',
        displayName: id,
        supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
      };
    default:
      return { id, object: 'model', created: MODEL_CREATED, owned_by: 'tollgate' };
  }
}

export function modelList(ids: readonly string[], format: IngressKind | 'openai'): unknown {
  const data = ids.map((id) => modelEntry(id, format));
  switch (format) {
    case 'anthropic':
      return {
        data,
        has_more: false,
        first_id: ids[0] ?? null,
        last_id: ids[ids.length - 1] ?? null,
      };
    case 'gemini':
      return { models: data };
    default:
      return { object: 'list', data };
  }
}
