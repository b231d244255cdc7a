import { parseProviderSettings } from '../provider-settings';
import { bodyOf, wireChannel } from '../testing-fixtures';
import { vertexAdaptor } from './vertex-adaptor';

const KEY = JSON.stringify({
  type: 'service_account',
  project_id: 'proj-1',
  private_key: 'pem',
  client_email: 'relay@proj-1.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.googleapis.com/token',
});
const channel = wireChannel(41, { key: KEY });
const adaptor = vertexAdaptor({ accessToken: () => Promise.resolve('ya29.stub') });
const hub = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
const now = new Date(0);

describe("Vertex AI adaptor: new-api's claude.* and gemini.* settings", () => {
  const settings = parseProviderSettings({
    'gemini.safety_settings': JSON.stringify({ default: 'BLOCK_ONLY_HIGH' }),
    'gemini.version_settings': JSON.stringify({ default: 'v1beta' }),
    'claude.default_max_tokens': JSON.stringify({ default: 3000 }),
    'claude.model_headers_settings': JSON.stringify({
      'claude-client': { 'anthropic-beta': ['context-1m-2025-08-07'] },
    }),
  });

  it('Gemini: the safety settings on the body; the URL stays v1 (Vertex has no version setting)', () => {
    const req = adaptor.request('chat', hub, channel, 'gemini-2.0-flash', false, now, { settings });
    expect(req.path).toMatch(/^\/v1\/projects\/proj-1\//);
    const safety = bodyOf(req.body).safetySettings as Array<{ threshold: string }>;
    expect(safety).toHaveLength(4);
    expect(safety.every((s) => s.threshold === 'BLOCK_ONLY_HIGH')).toBe(true);
  });

  it('Claude: default max_tokens, the model’s headers, the -thinking model cut in the URL', () => {
    const req = adaptor.request(
      'chat',
      hub,
      channel,
      'claude-sonnet-4-20250514-thinking',
      false,
      now,
      {
        settings,
        clientModel: 'claude-client',
      },
    );
    expect(req.path).toContain('/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict');
    expect(req.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    const body = bodyOf(req.body);
    expect(body.model).toBeUndefined();
    expect(body).toMatchObject({
      max_tokens: 3000,
      thinking: { type: 'enabled', budget_tokens: 2400 },
    });
    expect(req.upstreamModel).toBe('claude-sonnet-4-20250514');
  });
});
