import { describe, expect, it } from 'vitest';
import { chatTargets, fillChatTemplate } from './chat-links';

const KEY = 'k'.repeat(48);
const ADDRESS = 'https://gw.example.com';

/** Reads a `{cherryConfig}`-style payload back: URL-decode, base64-decode (UTF-8), JSON. */
const decodeConfig = (encoded: string): unknown =>
  JSON.parse(
    new TextDecoder().decode(
      Uint8Array.from(atob(decodeURIComponent(encoded)), (char) => char.charCodeAt(0)),
    ),
  );

describe('fillChatTemplate', () => {
  it.each([
    [
      '{key} becomes the full sk- key',
      'https://c.example/?k={key}',
      `https://c.example/?k=sk-${KEY}`,
    ],
    [
      '{address} is URL-encoded',
      'https://c.example/?url={address}',
      'https://c.example/?url=https%3A%2F%2Fgw.example.com',
    ],
    [
      'every occurrence is replaced',
      '{address}|{address}|{key}|{key}',
      `https%3A%2F%2Fgw.example.com|https%3A%2F%2Fgw.example.com|sk-${KEY}|sk-${KEY}`,
    ],
    [
      'the Next-Web settings style',
      'https://next.example/#/?settings={"key":"{key}","url":"{address}"}',
      `https://next.example/#/?settings={"key":"sk-${KEY}","url":"https%3A%2F%2Fgw.example.com"}`,
    ],
    [
      'app schemes (AMA, OpenCat) are plain templates',
      'ama://set-api-key?server={address}&key={key}',
      `ama://set-api-key?server=https%3A%2F%2Fgw.example.com&key=sk-${KEY}`,
    ],
    ['a template without placeholders is left alone', 'https://c.example/', 'https://c.example/'],
  ])('%s', (_case, template, expected) => {
    expect(fillChatTemplate(template, ADDRESS, KEY)).toBe(expected);
  });

  it('{cherryConfig} becomes a URL-encoded base64 provider config for Cherry Studio', () => {
    const url = fillChatTemplate(
      'cherrystudio://providers/api-keys?v=1&data={cherryConfig}',
      ADDRESS,
      KEY,
    );
    const [, payload = ''] = url.split('data=');
    expect(url.startsWith('cherrystudio://providers/api-keys?v=1&data=')).toBe(true);
    expect(payload).not.toMatch(/[+/=]/);
    expect(decodeConfig(payload)).toEqual({ id: 'new-api', baseUrl: ADDRESS, apiKey: `sk-${KEY}` });
  });

  it('{aionuiConfig} becomes a base64 config for AionUi, non-Latin text included', () => {
    const url = fillChatTemplate('aionui://provider/add?v=1&data={aionuiConfig}', '网关', KEY);
    const [, payload = ''] = url.split('data=');
    expect(decodeConfig(payload)).toEqual({
      platform: 'new-api',
      baseUrl: '网关',
      apiKey: `sk-${KEY}`,
    });
  });
});

describe('chatTargets', () => {
  it('lists the Chats option in order, one target per entry', () => {
    expect(
      chatTargets({
        chats: [{ NextChat: 'https://a/{key}' }, { Lobe: 'https://b/{key}' }],
        chat_link: 'https://legacy',
      }),
    ).toEqual([
      { name: 'NextChat', template: 'https://a/{key}' },
      { name: 'Lobe', template: 'https://b/{key}' },
    ]);
  });

  it('reads the option text too (a stored status may carry it unparsed)', () => {
    expect(chatTargets({ chats: '[{"A":"https://a"}]' as never })).toEqual([
      { name: 'A', template: 'https://a' },
    ]);
  });

  it.each([
    ['text that is not JSON', 'not json'],
    ['an object instead of a list', { A: 'https://a' }],
    ['an entry that is not an object', ['https://a']],
    ['an empty entry', [{}]],
    ['a template that is not text', [{ A: 42 }]],
  ])('answers null (failed to parse chat data) for %s', (_case, chats) => {
    expect(chatTargets({ chats: chats as never })).toBeNull();
  });

  it('falls back to the legacy ChatLink and ChatLink2 while Chats is empty', () => {
    expect(
      chatTargets({
        chats: [],
        chat_link: 'https://next.example/',
        chat_link2: 'https://mj.example',
      }),
    ).toEqual([
      {
        name: 'ChatGPT Next Web',
        template: 'https://next.example/#/?settings={"key":"{key}","url":"{address}"}',
      },
      {
        name: 'ChatGPT Web & Midjourney',
        template: 'https://mj.example/#/?settings={"key":"{key}","url":"{address}"}',
      },
    ]);
  });

  it('has no target when nothing is configured', () => {
    expect(chatTargets({ chats: [], chat_link: '', chat_link2: '' })).toEqual([]);
  });
});
