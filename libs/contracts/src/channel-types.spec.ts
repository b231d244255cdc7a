import {
  CHANNEL_TYPES,
  CHANNEL_TYPE_TABLE,
  channelTypeInfo,
  isValidChannelKey,
  splitChannelKeys,
} from './channel-types';
import { parseChannelOtherInfo, responseTimeBand } from './channel.dto';

describe('channel type table', () => {
  it('has every one-api type once, with its name', () => {
    const spec = [
      1, 2, 3, 4, 5, 8, 11, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 31, 33, 34, 35, 36, 37,
      38, 39, 40, 41,
    ];
    for (const type of spec) expect(CHANNEL_TYPES[type]).toBeDefined();
    const values = CHANNEL_TYPE_TABLE.map((info) => info.value);
    expect(new Set(values).size).toBe(values.length);
    expect(CHANNEL_TYPES[0]).toBeUndefined();
  });

  it('default base URLs never end with a slash', () => {
    for (const info of CHANNEL_TYPE_TABLE) expect(info.defaultBaseUrl.endsWith('/')).toBe(false);
  });

  it("new-api's 45 VolcEngine and 46 BaiduV2 are listed with their provider's address and an API key", () => {
    expect(channelTypeInfo(45)).toMatchObject({
      defaultBaseUrl: 'https://ark.cn-beijing.volces.com',
      keyFormat: 'api_key',
      jsonKey: false,
    });
    expect(channelTypeInfo(46)).toMatchObject({
      defaultBaseUrl: 'https://qianfan.baidubce.com',
      keyFormat: 'api_key',
      jsonKey: false,
    });
    expect(CHANNEL_TYPES[45]).toMatch(/VolcEngine/);
    expect(CHANNEL_TYPES[46]).toMatch(/Qianfan V2/);
  });

  it("new-api's OpenAI-compatible 6, 7, 9, 42 and 48 keep their own number, name and address", () => {
    expect(
      [6, 7, 9, 42, 48].map((type) => [CHANNEL_TYPES[type], channelTypeInfo(type)?.defaultBaseUrl]),
    ).toEqual([
      ['OpenAI Max', 'https://api.openaimax.com'],
      ['OhMyGPT', 'https://api.ohmygpt.com'],
      ['AILS', 'https://api.caipacity.com'],
      ['Mistral AI', 'https://api.mistral.ai'],
      ['xAI', 'https://api.x.ai'],
    ]);
  });

  it('Azure and Spark carry their default for other', () => {
    expect(channelTypeInfo(3)?.other?.default).toBe('2023-06-01-preview');
    expect(channelTypeInfo(18)?.other?.default).toBe('v2.1');
  });
});

describe('splitChannelKeys', () => {
  it('one key per non-empty line, trimmed', () => {
    expect(splitChannelKeys(1, ' sk-a \r\n\nsk-b\n  \nsk-c')).toEqual(['sk-a', 'sk-b', 'sk-c']);
  });
  it('a JSON-keyed type keeps the whole text as one key', () => {
    const json = '{\n "type": "service_account",\n "project_id": "p"\n}';
    expect(splitChannelKeys(41, json)).toEqual([json]);
    expect(splitChannelKeys(41, '  ')).toEqual([]);
  });
});

describe('isValidChannelKey', () => {
  it.each([
    [1, 'sk-abc', true],
    [1, 'sk a', false],
    [15, 'api|secret', true],
    [15, 'api-only', false],
    [18, 'app|secret|key', true],
    [18, 'app|secret', false],
    [22, 'fastgpt-0sp2gtvfdgyi4k30jwlgwf1i-64f335d84283f05518e9e041', true],
    [22, 'nodash', false],
    [23, 'a|b|c', true],
    [23, 'a||c', false],
    [33, 'ak|sk|us-east-1', true],
    [33, 'ak|sk', false],
    [41, '{"type":"service_account"}', true],
    [41, '{not json}', false],
    [41, '[1]', false],
  ])('type %i key %s → %s', (type, key, valid) => {
    expect(isValidChannelKey(type, key)).toBe(valid);
  });
});

describe('channel dto helpers', () => {
  it('parses other_info leniently', () => {
    expect(parseChannelOtherInfo('{"status_reason":"401","status_time":5}')).toEqual({
      status_reason: '401',
      status_time: 5,
    });
    expect(parseChannelOtherInfo('oops')).toEqual({});
    expect(parseChannelOtherInfo('')).toEqual({});
  });
  it('response time bands: untested, green, lime, yellow, red', () => {
    expect([0, 1000, 1001, 3000, 5000, 5001].map(responseTimeBand)).toEqual([
      'untested',
      'green',
      'lime',
      'lime',
      'yellow',
      'red',
    ]);
  });
});
