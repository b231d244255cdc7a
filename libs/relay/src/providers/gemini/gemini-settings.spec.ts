import { parseProviderSettings } from '../provider-settings';
import { bodyOf, wireChannel } from '../testing-fixtures';
import { GEMINI_ADAPTOR, geminiNativeRequest } from './gemini-adaptor';

const channel = wireChannel(24, { baseUrl: 'https://gl.example', key: 'AIza' });
const now = new Date(0);
const hub = { model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'hi' }] };

describe("Gemini adaptor: new-api's gemini.* settings", () => {
  it('without settings: v1beta, no safetySettings (its own behaviour)', () => {
    const req = GEMINI_ADAPTOR.request('chat', hub, channel, 'gemini-2.0-flash', false, now);
    expect(req.path).toBe('/v1beta/models/gemini-2.0-flash:generateContent');
    expect(bodyOf(req.body).safetySettings).toBeUndefined();
  });

  it('gemini.safety_settings: every category with its threshold, the default for the rest', () => {
    const settings = parseProviderSettings({
      'gemini.safety_settings': JSON.stringify({
        default: 'BLOCK_NONE',
        HARM_CATEGORY_HATE_SPEECH: 'BLOCK_ONLY_HIGH',
      }),
    });
    const req = GEMINI_ADAPTOR.request('chat', hub, channel, 'gemini-2.0-flash', true, now, {
      settings,
    });
    expect(bodyOf(req.body).safetySettings).toEqual([
      { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' },
      { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'BLOCK_NONE' },
    ]);
  });

  it('gemini.version_settings: the upstream model’s version in the URL (chat, embeddings, native)', () => {
    const settings = parseProviderSettings({
      'gemini.version_settings': JSON.stringify({ default: 'v1', 'gemini-exp': 'v1alpha' }),
    });
    const ctx = { settings };
    expect(GEMINI_ADAPTOR.request('chat', hub, channel, 'gemini-exp', false, now, ctx).path).toBe(
      '/v1alpha/models/gemini-exp:generateContent',
    );
    expect(
      GEMINI_ADAPTOR.request('chat', hub, channel, 'gemini-2.0-flash', true, now, ctx).path,
    ).toBe('/v1/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    const embed = { model: 'text-embedding-004', input: 'x' };
    expect(
      GEMINI_ADAPTOR.request('embeddings', embed, channel, 'text-embedding-004', false, now, ctx)
        .path,
    ).toBe('/v1/models/text-embedding-004:batchEmbedContents');
    const raw = Buffer.from('{"contents":[]}');
    const native = geminiNativeRequest(raw, {}, channel, 'gemini-exp', false, {}, ctx);
    expect(native.path).toBe('/v1alpha/models/gemini-exp:generateContent');
    // a Gemini client's own body is not touched (its safetySettings are its own)
    expect(native.body).toBe(raw);
  });
});
