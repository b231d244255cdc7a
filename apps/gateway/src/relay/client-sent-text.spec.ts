import type { Prepared } from './relay-call';
import { clientSentText, keywordSentBy } from './client-sent-text';

const prepared = (body: Prepared['body'], raw = '', modelFromPath?: string) =>
  ({
    body,
    facts: { model: 'gpt-4o' },
    call: { raw: Buffer.from(raw), modelFromPath },
  }) as unknown as Pick<Prepared, 'body' | 'call' | 'facts'>;

describe('what the client sent', () => {
  it('reads the JSON body’s keys and decoded string values, lower-cased', () => {
    // `\u0059` is "Y": the text the upstream decodes and may quote back.
    const body = JSON.parse('{"messages":[{"role":"user","content":"\\u0059our Account"}]}');
    const text = clientSentText(prepared(body, '{"ignored raw":1}'));
    expect(text).toContain('your account');
    expect(text).toContain('messages');
    expect(text).not.toContain('ignored raw');
  });

  it('reads the raw body when it is not JSON (multipart), and the model of the path', () => {
    const text = clientSentText(prepared(undefined, 'prompt=Permission Denied', 'Gemini-X'));
    expect(text).toContain('permission denied');
    expect(text).toContain('gemini-x');
  });

  it('answers per keyword, case-insensitively, building the text once', () => {
    const body = { messages: [{ role: 'user', content: 'You exceeded your current QUOTA' }] };
    const p = prepared(body);
    const spy = jest.spyOn(Object, 'entries');
    const sent = keywordSentBy(p);
    expect(spy).not.toHaveBeenCalled();
    expect(sent('you exceeded your current quota')).toBe(true);
    const calls = spy.mock.calls.length;
    expect(sent('Permission denied')).toBe(false);
    expect(spy.mock.calls.length).toBe(calls);
    spy.mockRestore();
  });
});
