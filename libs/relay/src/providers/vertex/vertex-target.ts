/**
 * Where a Vertex AI call goes: `{origin}/v1/projects/{project}/locations/{region}/publishers/
 * {publisher}/models/{model}:{method}`, the origin being the region's endpoint unless the channel
 * names its own base URL (a proxy, a private endpoint, the test mock).
 */
import type { WireChannel } from '../../openai/openai-wire';

/** Google's own models, and Anthropic's Claude served as a Vertex partner model. */
export type VertexPublisher = 'google' | 'anthropic';

/** Claude names start with `claude`; everything else is treated as a Google (Gemini) model. */
export function vertexPublisherOf(upstreamModel: string): VertexPublisher {
  return upstreamModel.trim().toLowerCase().startsWith('claude') ? 'anthropic' : 'google';
}

/** The regional endpoint; `global` has no region prefix. */
export function vertexOrigin(channel: Pick<WireChannel, 'baseUrl'>, region: string): string {
  const base = channel.baseUrl.trim().replace(/\/+$/, '');
  if (base !== '') return base;
  return region === 'global'
    ? 'https://aiplatform.googleapis.com'
    : `https://${region}-aiplatform.googleapis.com`;
}

/** Anthropic's dated names whose Vertex id is not simply `<name>@<date>`. */
const CLAUDE_IDS: Readonly<Record<string, string>> = {
  'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022',
};

/**
 * Vertex spells Claude versions `claude-sonnet-4@20250514` where Anthropic writes
 * `claude-sonnet-4-20250514`; an id that already has `@` (or no date) goes as it is.
 */
export function vertexClaudeModelId(model: string): string {
  if (model.includes('@')) return model;
  const known = CLAUDE_IDS[model];
  if (known) return known;
  const dated = /^(.+)-(\d{8})$/.exec(model);
  return dated ? `${dated[1]}@${dated[2]}` : model;
}

/** Google's documents write the `@` of a Claude version as it is. */
const modelSegment = (model: string): string => encodeURIComponent(model).replace(/%40/g, '@');

/** The URL (origin and path) of `method` on `model` for `project` in `region`. */
export function vertexUrl(
  channel: Pick<WireChannel, 'baseUrl'>,
  project: string,
  region: string,
  publisher: VertexPublisher,
  model: string,
  method: string,
): { origin: string; path: string } {
  const url = new URL(
    `${vertexOrigin(channel, region)}/v1/projects/${encodeURIComponent(project)}` +
      `/locations/${region}/publishers/${publisher}/models/${modelSegment(model)}:${method}`,
  );
  return { origin: url.origin, path: `${url.pathname}${url.search}` };
}
