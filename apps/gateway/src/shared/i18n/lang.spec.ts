import { pickLang, pickRelayLang } from './lang';

describe('the language of an answer', () => {
  it('on the relay: the first supported language the client names, else English', () => {
    expect(pickRelayLang(undefined)).toBe('en');
    expect(pickRelayLang('')).toBe('en');
    expect(pickRelayLang(['zh-CN'])).toBe('en'); // not a header value Node gives
    expect(pickRelayLang('zh-CN,zh;q=0.9')).toBe('zh-CN');
    expect(pickRelayLang('fr, zh;q=0.5')).toBe('zh-CN');
    expect(pickRelayLang('fr')).toBe('en');
    expect(pickRelayLang('en-US,en;q=0.9,zh-CN;q=0.8')).toBe('en');
    expect(pickRelayLang('zh-TW')).toBe('zh-CN');
  });

  it('honours q-values over order, and q=0 as a refusal', () => {
    expect(pickRelayLang('zh;q=0.5, en;q=0.9')).toBe('en');
    expect(pickRelayLang('en;q=0.5, zh;q=0.5')).toBe('en');
    expect(pickRelayLang('zh;q=0, fr')).toBe('en');
    expect(pickLang('en;q=0, fr')).toBe('zh-CN');
    expect(pickRelayLang(' ZH-cn ; q=0.8 ')).toBe('zh-CN');
  });

  it('on the console: zh-CN unless the client prefers English, as before', () => {
    expect(pickLang(undefined)).toBe('zh-CN');
    expect(pickLang('fr')).toBe('zh-CN');
    expect(pickLang('en')).toBe('en');
    expect(pickLang('en-US,en;q=0.9')).toBe('en');
    expect(pickLang('zh-CN,en;q=0.8')).toBe('zh-CN');
  });
});
