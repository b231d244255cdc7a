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
.muted{color:#666}code{font-family:monospace}`;

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

function parametersTable(op: OpenApiOperation): string {
  if (op.parameters.length === 0) return '';
  const rows = op.parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p['name'])}</code></td><td>${escapeHtml(p['in'])}</td><td>${escapeHtml(typeOf(p['schema'] as JsonSchema))}</td><td>${p['required'] ? 'required' : ''}</td></tr>`,
    )
    .join('');
  return `<table><tr><th>Parameter</th><th>In</th><th>Type</th><th></th></tr>${rows}</table>`;
}

function bodySummary(op: OpenApiOperation, doc: OpenApiDocument): string {
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
    ? `<table><tr><th>Field</th><th>Type</th><th></th></tr>${fields}</table>`
    : '';
  return `<div class="muted">Body (${escapeHtml(mediaType)})${escapeHtml(name)}</div>${table}`;
}

/** What the route answers in a line: `data: UserDto` inside the envelope, or its own shape. */
function answerSummary(op: OpenApiOperation): string {
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
    return `<div class="muted">Answer: envelope, <code>data</code>: ${escapeHtml(typeOf(data))}</div>`;
  if (extra)
    return `<div class="muted">Answer: envelope with ${escapeHtml(Object.keys(extra.properties ?? {}).join(', '))}</div>`;
  return '';
}

function operationHtml(
  path: string,
  method: string,
  op: OpenApiOperation,
  doc: OpenApiDocument,
): string {
  return `<div class="op"><div class="head"><span class="m ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span><span class="path">${escapeHtml(path)}</span><span class="role">${escapeHtml(op['x-tollgate-role'])}</span><span class="muted">${escapeHtml(op.summary)}</span></div><div>${escapeHtml(op.description)}</div>${parametersTable(op)}${bodySummary(op, doc)}${answerSummary(op)}</div>`;
}

const anchor = (tag: string): string => `tag-${tag.replace(/[^A-Za-z0-9]+/g, '-')}`;

/** The human-readable reference: one section per tag, one block per operation. */
export function renderDocsPage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags[0] ?? '';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(path, method, op, doc)]);
    }
  const tags = [...byTag.keys()].sort();
  const info = doc['info'] as { title: string; version: string; description: string };
  const nav = tags.map((t) => `<a href="#${anchor(t)}">${escapeHtml(t)}</a>`).join(' ');
  const sections = tags
    .map((t) => `<h2 id="${anchor(t)}">${escapeHtml(t)}</h2>${(byTag.get(t) ?? []).join('')}`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(info.title)} reference</title><style>${STYLE}</style></head><body><h1>${escapeHtml(info.title)} <span class="muted">${escapeHtml(info.version)}</span></h1><p>${escapeHtml(info.description)} Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.</p><nav>${nav}</nav>${sections}</body></html>`;
}
