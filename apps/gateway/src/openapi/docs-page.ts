import type { Lang } from '../shared/i18n/messages';
import { SCHEMA_REF, type JsonSchema } from './dto-schemas';
import type { OpenApiDocument, OpenApiOperation } from './openapi-document';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: unknown): string =>
  String(text).replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

// Inline only: the page is served from the gateway itself and loads nothing from anywhere.
const STYLE = `
body{font:14px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:24px;color:#222}
h1{margin:0 0 4px}h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}
nav a{margin-right:12px}.op{border:1px solid #e3e3e3;border-radius:6px;padding:10px 14px;margin:10px 0}
.head{display:flex;gap:10px;align-items:center;flex-wrap:wrap}.path{font:600 14px monospace}
.m{font:700 12px monospace;color:#fff;border-radius:4px;padding:2px 8px;min-width:52px;text-align:center}
.get{background:#2f7ed8}.post{background:#2e9e5b}.put{background:#c9871b}.delete{background:#c0392b}
.patch{background:#7d4cb3}.options{background:#777}.role{font-size:12px;border:1px solid #aaa;border-radius:10px;padding:0 8px}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #e3e3e3;padding:2px 8px;text-align:left;font-size:13px}
.muted{color:#666}code{font-family:monospace}
@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#dcdcdc}a{color:#74a7ff}
.op,td,th{border-color:#373a40}h2{border-color:#373a40}.muted{color:#9a9a9a}.role{border-color:#5c5f66}}
@media (max-width:600px){body{padding:12px}table{display:block;overflow-x:auto}}`;

/** The page's own words; the operations' texts are the document's (English). */
const LABELS = {
  en: {
    parameter: 'Parameter',
    in: 'In',
    type: 'Type',
    field: 'Field',
    body: 'Body',
    answer: 'Answer: envelope,',
    answerWith: 'Answer: envelope with',
    reference: 'reference',
    machine: 'Machine-readable:',
  },
  'zh-CN': {
    parameter: '参数',
    in: '位置',
    type: '类型',
    field: '字段',
    body: '请求体',
    answer: '返回：信封，',
    answerWith: '返回：信封，含',
    reference: '参考',
    machine: '机器可读：',
  },
} as const;
type Labels = (typeof LABELS)[Lang];

type Schema = JsonSchema & { properties?: Record<string, JsonSchema>; required?: string[] };

function resolve(schema: JsonSchema | undefined, doc: OpenApiDocument): Schema | undefined {
  const target = schema?.['$ref'];
  if (typeof target !== 'string') return schema;
  return doc.components.schemas[target.slice(SCHEMA_REF.length)];
}

/** A property's type in a word or two: `integer`, `string[]`, `one of a, b`, `ChannelFieldsBody`. */
function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  if (typeof schema['$ref'] === 'string') return schema['$ref'].slice(SCHEMA_REF.length);
  if (Array.isArray(schema['enum']))
    return `one of ${schema['enum'].map((v) => JSON.stringify(v)).join(', ')}`;
  if (schema['type'] === 'array') return `${typeOf(schema['items'] as JsonSchema)}[]`;
  const type = schema['type'];
  return Array.isArray(type) ? type.join(' | ') : typeof type === 'string' ? type : 'any';
}

function parametersTable(op: OpenApiOperation, t: Labels): string {
  if (op.parameters.length === 0) return '';
  const rows = op.parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p['name'])}</code></td><td>${escapeHtml(p['in'])}</td><td>${escapeHtml(typeOf(p['schema'] as JsonSchema))}</td><td>${p['required'] ? 'required' : ''}</td></tr>`,
    )
    .join('');
  return `<table><tr><th>${t.parameter}</th><th>${t.in}</th><th>${t.type}</th><th></th></tr>${rows}</table>`;
}

function bodySummary(op: OpenApiOperation, doc: OpenApiDocument, t: Labels): string {
  const content = op.requestBody?.['content'] as Record<string, { schema: JsonSchema }> | undefined;
  if (!content) return '';
  const [mediaType, { schema }] = Object.entries(content)[0] as [string, { schema: JsonSchema }];
  const resolved = resolve(schema, doc);
  const name = typeof schema['$ref'] === 'string' ? ` ${typeOf(schema)}` : '';
  const fields = Object.entries(resolved?.properties ?? {})
    .map(
      ([field, property]) =>
        `<tr><td><code>${escapeHtml(field)}</code></td><td>${escapeHtml(typeOf(property))}</td><td>${resolved?.required?.includes(field) ? 'required' : ''}</td></tr>`,
    )
    .join('');
  const table = fields
    ? `<table><tr><th>${t.field}</th><th>${t.type}</th><th></th></tr>${fields}</table>`
    : '';
  return `<div class="muted">${t.body} (${escapeHtml(mediaType)})${escapeHtml(name)}</div>${table}`;
}

/** What the route answers in a line: `data: UserDto` inside the envelope, or its own shape. */
function answerSummary(op: OpenApiOperation, t: Labels): string {
  const responses = op['responses'] as Record<
    string,
    { content?: Record<string, { schema?: JsonSchema }> }
  >;
  const content = responses['200']?.content;
  const schema = content?.['application/json']?.schema;
  const parts = (schema?.['allOf'] as Schema[] | undefined) ?? [];
  const extra = parts[1];
  const data = extra?.properties?.['data'];
  if (data)
    return `<div class="muted">${t.answer} <code>data</code>: ${escapeHtml(typeOf(data))}</div>`;
  if (extra)
    return `<div class="muted">${t.answerWith} ${escapeHtml(Object.keys(extra.properties ?? {}).join(', '))}</div>`;
  return '';
}

function operationHtml(
  path: string,
  method: string,
  op: OpenApiOperation,
  doc: OpenApiDocument,
  t: Labels,
): string {
  return `<div class="op"><div class="head"><span class="m ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span><span class="path">${escapeHtml(path)}</span><span class="role">${escapeHtml(op['x-tollgate-role'])}</span><span class="muted">${escapeHtml(op.summary)}</span></div><div>${escapeHtml(op.description)}</div>${parametersTable(op, t)}${bodySummary(op, doc, t)}${answerSummary(op, t)}</div>`;
}

const anchor = (tag: string): string => `tag-${tag.replace(/[^A-Za-z0-9]+/g, '-')}`;

/** The human-readable reference: one section per tag, one block per operation. */
export function renderDocsPage(doc: OpenApiDocument, lang: Lang = 'en'): string {
  const t = LABELS[lang];
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags[0] ?? '';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(path, method, op, doc, t)]);
    }
  const tags = [...byTag.keys()].sort();
  const info = doc['info'] as { title: string; version: string; description: string };
  const nav = tags.map((t) => `<a href="#${anchor(t)}">${escapeHtml(t)}</a>`).join(' ');
  const sections = tags
    .map((t) => `<h2 id="${anchor(t)}">${escapeHtml(t)}</h2>${(byTag.get(t) ?? []).join('')}`)
    .join('');
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(info.title)} ${t.reference}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(info.title)} <span class="muted">${escapeHtml(info.version)}</span></h1><p>${escapeHtml(info.description)} ${t.machine} <a href="/api/openapi.json">/api/openapi.json</a>.</p><nav>${nav}</nav>${sections}</body></html>`;
}
