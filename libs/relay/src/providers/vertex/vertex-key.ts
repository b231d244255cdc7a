/**
 * A Vertex AI channel's settings: the key is a Google service-account JSON document, `other` the
 * region — a plain name (`us-east5`) or new-api's JSON `{"default": "...", "<model>": "..."}` that
 * gives some models their own region (Claude is served in fewer regions than Gemini).
 */
import { isObject } from '../json-parts';

export const VERTEX_CHANNEL_TYPE = 41;
export const VERTEX_DEFAULT_REGION = 'us-central1';
/** Google's token endpoint, used when the key has no `token_uri`. */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** What authorizing and addressing a call needs of the service-account key. */
export interface VertexServiceAccount {
  readonly clientEmail: string;
  /** PEM, as the key file has it. */
  readonly privateKey: string;
  readonly projectId: string;
  readonly tokenUri: string;
}

/** A channel key or region that cannot make a request; the message never quotes the key. */
export class VertexConfigError extends Error {
  override readonly name = 'VertexConfigError';
}

function member(doc: Record<string, unknown>, name: string): string {
  const value = doc[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new VertexConfigError(`Vertex AI key: "${name}" is missing or empty`);
  }
  return value.trim();
}

export function parseVertexKey(key: string): VertexServiceAccount {
  let doc: unknown;
  try {
    doc = JSON.parse(key);
  } catch {
    throw new VertexConfigError('Vertex AI key: not JSON (paste the service-account key file)');
  }
  if (!isObject(doc)) throw new VertexConfigError('Vertex AI key: not a JSON object');
  if (doc.type !== undefined && doc.type !== 'service_account') {
    throw new VertexConfigError(`Vertex AI key: type must be "service_account"`);
  }
  const tokenUri = typeof doc.token_uri === 'string' ? doc.token_uri.trim() : '';
  return {
    clientEmail: member(doc, 'client_email'),
    // A key pasted through some forms keeps its newlines escaped.
    privateKey: member(doc, 'private_key').replace(/\\n/g, '\n'),
    projectId: member(doc, 'project_id'),
    tokenUri: tokenUri || GOOGLE_TOKEN_URI,
  };
}

// Google Cloud location names: lower-case words and digits joined by dashes, or `global`.
const REGION = /^[a-z]+(-[a-z0-9]+)+$|^global$/;

function checkedRegion(region: string, where: string): string {
  if (!REGION.test(region)) {
    throw new VertexConfigError(
      `Vertex AI region: ${where} "${region}" is not a region (e.g. us-central1, global)`,
    );
  }
  return region;
}

/** The region `model` is called in, from the channel's `other`. */
export function vertexRegion(other: string, model: string): string {
  const text = other.trim();
  if (text === '') return VERTEX_DEFAULT_REGION;
  if (!text.startsWith('{')) return checkedRegion(text, 'other');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new VertexConfigError(
      'Vertex AI region: `other` starts with "{" but is not JSON (e.g. {"default": "us-central1"})',
    );
  }
  if (!isObject(parsed)) throw new VertexConfigError('Vertex AI region: not a JSON object');
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') {
      throw new VertexConfigError(`Vertex AI region: the value of "${name}" is not a string`);
    }
  }
  const own = Object.prototype.hasOwnProperty.call(parsed, model) ? parsed[model] : undefined;
  if (typeof own === 'string' && own.trim() !== '') return checkedRegion(own.trim(), model);
  const fallback = typeof parsed.default === 'string' ? parsed.default.trim() : '';
  return fallback === '' ? VERTEX_DEFAULT_REGION : checkedRegion(fallback, 'default');
}
