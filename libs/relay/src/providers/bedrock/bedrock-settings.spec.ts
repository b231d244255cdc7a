import { parseProviderSettings } from '../provider-settings';
import { bodyOf, wireChannel } from '../testing-fixtures';
import { BEDROCK_ADAPTOR } from './bedrock-adaptor';

const channel = wireChannel(33, {
  key: 'AKIDEXAMPLE|wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY|us-east-1',
});
const hub = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
const now = new Date(0);

describe("Bedrock adaptor: new-api's claude.* settings", () => {
  it('anthropic-beta of the model goes in the body; max_tokens default; -thinking cut in the id', () => {
    const settings = parseProviderSettings({
      'claude.default_max_tokens': JSON.stringify({ default: 2000 }),
      'claude.model_headers_settings': JSON.stringify({
        'claude-client': { 'anthropic-beta': ['token-efficient-tools-2025-02-19'] },
      }),
    });
    const req = BEDROCK_ADAPTOR.request(
      'chat',
      hub,
      channel,
      'claude-3-7-sonnet-20250219-thinking',
      false,
      now,
      { settings, clientModel: 'claude-client' },
    );
    expect(req.path).toBe(
      `/model/${encodeURIComponent('us.anthropic.claude-3-7-sonnet-20250219-v1:0')}/invoke`,
    );
    expect(bodyOf(req.body)).toMatchObject({
      anthropic_beta: ['token-efficient-tools-2025-02-19'],
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1600 },
    });
    expect(req.headers['anthropic-beta']).toBeUndefined();
    expect(req.upstreamModel).toBe('claude-3-7-sonnet-20250219');
  });
});
