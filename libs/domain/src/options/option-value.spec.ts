import { DomainError } from '../shared/domain-error';
import { OPTION_CATALOGUE, type OptionDefinition } from './option-catalogue';
import { blankWhenAbsent, normalizeOptionValue } from './option-value';

const def = (key: string): OptionDefinition => {
  const definition = OPTION_CATALOGUE[key];
  if (!definition) throw new Error(`no option ${key} in the catalogue`);
  return definition;
};

const normalize = (key: string, raw: string, definition: OptionDefinition = def(key)) =>
  normalizeOptionValue(key, definition, raw);

function rejection(key: string, raw: string, definition: OptionDefinition = def(key)): DomainError {
  let caught: unknown;
  try {
    normalize(key, raw, definition);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DomainError);
  return caught as DomainError;
}

const expectRejected = (
  key: string,
  raw: string,
  code: string,
  params?: Record<string, string | number>,
) => {
  const error = rejection(key, raw);
  expect(error.code).toBe(code);
  if (params) expect(error.params).toEqual(params);
};

describe('normalizeOptionValue', () => {
  it('accepts every default value of the catalogue as it is', () => {
    for (const [key, definition] of Object.entries(OPTION_CATALOGUE)) {
      expect(normalizeOptionValue(key, definition, definition.defaultValue)).toBe(
        definition.defaultValue,
      );
    }
  });

  describe('bool', () => {
    it('accepts "true" and "false", trimmed', () => {
      expect(normalize('RegisterEnabled', 'true')).toBe('true');
      expect(normalize('RegisterEnabled', ' false ')).toBe('false');
    });

    it.each(['', 'TRUE', '1', 'yes', 'False'])('rejects %p', (raw) => {
      expectRejected('RegisterEnabled', raw, 'option.invalid_bool', { key: 'RegisterEnabled' });
    });
  });

  describe('int', () => {
    it('accepts integers and stores their canonical form', () => {
      expect(normalize('RetryTimes', '3')).toBe('3');
      expect(normalize('RetryTimes', ' 007 ')).toBe('7');
      expect(normalize('RetryTimes', '0')).toBe('0');
      expect(normalize('SMTPPort', '465')).toBe('465');
    });

    it.each(['', 'abc', '1.5', '1e3', '0x10', '9007199254740993'])('rejects %p', (raw) => {
      expectRejected('RetryTimes', raw, 'option.invalid_int', { key: 'RetryTimes' });
    });

    it('rejects a value below the minimum, naming it', () => {
      expectRejected('RetryTimes', '-1', 'option.below_minimum', { key: 'RetryTimes', min: 0 });
      expectRejected('SMTPPort', '0', 'option.below_minimum', { key: 'SMTPPort', min: 1 });
      expectRejected('MinTopUp', '-3', 'option.below_minimum', { key: 'MinTopUp', min: 1 });
    });

    it('ReceiptRetentionDays takes whole days from 0 (keep all)', () => {
      expect(normalize('ReceiptRetentionDays', '0')).toBe('0');
      expect(normalize('ReceiptRetentionDays', ' 30 ')).toBe('30');
      expectRejected('ReceiptRetentionDays', '-1', 'option.below_minimum', {
        key: 'ReceiptRetentionDays',
        min: 0,
      });
      expectRejected('ReceiptRetentionDays', '1.5', 'option.invalid_int', {
        key: 'ReceiptRetentionDays',
      });
    });

    it('accepts a negative value when the kind has no lower bound', () => {
      expect(normalize('Anything', '-4', { kind: 'int', defaultValue: '0' })).toBe('-4');
    });
  });

  describe('float', () => {
    it('accepts decimal numbers as written', () => {
      expect(normalize('Price', '7.30')).toBe('7.30');
      expect(normalize('Price', ' 0.5 ')).toBe('0.5');
      expect(normalize('ChannelDisableThreshold', '0')).toBe('0');
      expect(normalize('QuotaPerUnit', '1')).toBe('1');
    });

    it.each(['', '   ', 'abc', '1,5', 'Infinity', 'NaN'])('rejects %p', (raw) => {
      expectRejected('Price', raw, 'option.invalid_number', { key: 'Price' });
    });

    it('rejects a value below the minimum, naming it', () => {
      expectRejected('Price', '-0.01', 'option.below_minimum', { key: 'Price', min: 0 });
      expectRejected('QuotaPerUnit', '0.5', 'option.below_minimum', {
        key: 'QuotaPerUnit',
        min: 1,
      });
    });
  });

  describe('string and text', () => {
    it('trims a string', () => {
      expect(normalize('SystemName', '  My Gateway  ')).toBe('My Gateway');
      expect(normalize('SMTPServer', '')).toBe('');
    });

    it('keeps the whitespace of a text as written', () => {
      const notice = '  # Notice\n\n  indented line\n';
      expect(normalize('Notice', notice)).toBe(notice);
      expect(normalize('Footer', '   ')).toBe('   ');
    });

    it('DataExportDefaultTime accepts only hour, day or week', () => {
      expect(['hour', ' day ', 'week'].map((v) => normalize('DataExportDefaultTime', v))).toEqual([
        'hour',
        'day',
        'week',
      ]);
      expectRejected('DataExportDefaultTime', 'month', 'option.invalid_choice', {
        key: 'DataExportDefaultTime',
        choices: 'hour, day, week',
      });
    });
  });

  describe('address', () => {
    it('strips trailing slashes and surrounding whitespace', () => {
      expect(normalize('ServerAddress', 'https://gw.example.com/')).toBe('https://gw.example.com');
      expect(normalize('ServerAddress', ' https://gw.example.com/// ')).toBe(
        'https://gw.example.com',
      );
      expect(normalize('PayAddress', 'http://pay.example.com:8080/epay/')).toBe(
        'http://pay.example.com:8080/epay',
      );
    });

    it('keeps an address without trailing slash as it is', () => {
      expect(normalize('WorkerUrl', 'HTTPS://Worker.Example.com/path?x=1')).toBe(
        'HTTPS://Worker.Example.com/path?x=1',
      );
    });

    it('accepts an empty address (not configured)', () => {
      expect(normalize('ServerAddress', '')).toBe('');
      expect(normalize('ServerAddress', '/')).toBe('');
    });

    it.each([
      'gw.example.com',
      'ftp://gw.example.com',
      'https://',
      'https:///path',
      'https://gw example.com',
      'javascript:alert(1)',
    ])('rejects %p', (raw) => {
      expectRejected('ServerAddress', raw, 'option.invalid_address', { key: 'ServerAddress' });
    });
  });

  describe('json-object-number', () => {
    it('accepts an object of non-negative numbers as written', () => {
      const ratio = '{ "gpt-4o": 1.25, "free-model": 0 }';
      expect(normalize('ModelRatio', ratio)).toBe(ratio);
      expect(normalize('GroupRatio', '{}')).toBe('{}');
    });

    it.each([
      'not json',
      '[1, 2]',
      'null',
      '3',
      '{"vip": "1"}',
      '{"vip": -1}',
      '{"vip": null}',
      '{"vip": {"x": 1}}',
    ])('rejects %p as invalid JSON for the key', (raw) => {
      expectRejected('GroupRatio', raw, 'option.invalid_json', { key: 'GroupRatio' });
    });

    it('uses its own code for TopupGroupRatio', () => {
      expect(normalize('TopupGroupRatio', '{"default": 1, "vip": 0.9}')).toBe(
        '{"default": 1, "vip": 0.9}',
      );
      expectRejected('TopupGroupRatio', '{broken', 'option.topup_group_ratio_invalid_json', {});
      expectRejected(
        'TopupGroupRatio',
        '{"vip": "cheap"}',
        'option.topup_group_ratio_invalid_json',
        {},
      );
      expectRejected('TopupGroupRatio', '[]', 'option.topup_group_ratio_invalid_json', {});
    });
  });

  describe('json-object-string', () => {
    it('accepts an object of strings', () => {
      const groups = '{"default": "Default", "vip": "VIP"}';
      expect(normalize('UserUsableGroups', groups)).toBe(groups);
    });

    it.each(['{', '["default"]', '{"vip": 1}', '"vip"'])('rejects %p', (raw) => {
      expectRejected('UserUsableGroups', raw, 'option.invalid_json', { key: 'UserUsableGroups' });
    });
  });

  describe('json-chats', () => {
    it('accepts an array of name → link objects', () => {
      const chats = '[{"NextChat": "https://app.nextchat.dev/#/?key={key}"}, {}]';
      expect(normalize('Chats', chats)).toBe(chats);
      expect(normalize('Chats', '[]')).toBe('[]');
    });

    it.each([
      '[',
      '{"NextChat": "https://x"}',
      '["https://x"]',
      '[{"NextChat": 1}]',
      '[null]',
      '[[]]',
    ])('rejects %p', (raw) => {
      expectRejected('Chats', raw, 'option.invalid_json', { key: 'Chats' });
    });
  });

  describe('email-list', () => {
    it('trims, lower-cases and de-duplicates, keeping the first order', () => {
      expect(
        normalize(
          'EmailDomainWhitelist',
          ' Gmail.com, qq.com ,GMAIL.COM,\nexample.co.uk\n, qq.com',
        ),
      ).toBe('gmail.com,qq.com,example.co.uk');
    });

    it('drops empty entries and accepts an empty list', () => {
      expect(normalize('EmailDomainWhitelist', 'a-b.io,,\n,')).toBe('a-b.io');
      expect(normalize('EmailDomainWhitelist', '')).toBe('');
    });

    it.each([
      ['gmail.com,localhost', 'localhost'],
      ['user@gmail.com', 'user@gmail.com'],
      ['gmail.com,-bad.com', '-bad.com'],
      ['bad-.com', 'bad-.com'],
      ['exa mple.com', 'exa mple.com'],
      ['Foo_Bar.com', 'foo_bar.com'],
      ['example..com', 'example..com'],
    ])('rejects %p naming the bad domain %p', (raw, domain) => {
      expectRejected('EmailDomainWhitelist', raw, 'option.invalid_email_domain', { domain });
    });
  });
});

describe("normalizeOptionValue: new-api's provider settings (claude.*, gemini.*, global.*)", () => {
  it("declares new-api's defaults", () => {
    expect(def('claude.thinking_adapter_enabled').defaultValue).toBe('true');
    expect(def('claude.thinking_adapter_budget_tokens_percentage').defaultValue).toBe('0.8');
    expect(JSON.parse(def('claude.default_max_tokens').defaultValue)).toEqual({ default: 8192 });
    expect(JSON.parse(def('gemini.version_settings').defaultValue)).toEqual({
      default: 'v1beta',
      'gemini-1.0-pro': 'v1',
    });
    expect(def('global.pass_through_request_enabled').defaultValue).toBe('false');
  });

  it('accepts well-formed values', () => {
    const headers = '{"claude-3-7-sonnet-20250219":{"anthropic-beta":["output-128k-2025-02-19"]}}';
    expect(normalize('claude.model_headers_settings', headers)).toBe(headers);
    expect(normalize('claude.default_max_tokens', '{"default":0,"m":64000}')).toBe(
      '{"default":0,"m":64000}',
    );
    expect(normalize('gemini.safety_settings', '{"default":"BLOCK_NONE","x":""}')).toBe(
      '{"default":"BLOCK_NONE","x":""}',
    );
    expect(normalize('claude.thinking_adapter_budget_tokens_percentage', '1')).toBe('1');
  });

  it('refuses malformed values with the JSON / range / choice messages', () => {
    const invalid = (key: string) => ({ key });
    expectRejected(
      'claude.model_headers_settings',
      '{"m":{"h":"v"}}',
      'option.invalid_json',
      invalid('claude.model_headers_settings'),
    );
    expectRejected('claude.model_headers_settings', '{"m":[1]}', 'option.invalid_json');
    expectRejected('claude.default_max_tokens', '{"default":-1}', 'option.invalid_json');
    expectRejected('claude.default_max_tokens', '{"default":1.5}', 'option.invalid_json');
    expectRejected('gemini.version_settings', '{"default":1}', 'option.invalid_json');
    expect(rejection('gemini.safety_settings', '{"default":"LOW"}').code).toBe(
      'option.invalid_choice',
    );
    expectRejected(
      'claude.thinking_adapter_budget_tokens_percentage',
      '1.5',
      'option.above_maximum',
      {
        key: 'claude.thinking_adapter_budget_tokens_percentage',
        max: 1,
      },
    );
    expectRejected('claude.thinking_adapter_budget_tokens_percentage', '0', 'option.below_minimum');
    expectRejected('global.pass_through_request_enabled', 'yes', 'option.invalid_bool');
  });
});

describe('ModelFallbacks', () => {
  it('accepts model → ordered fallback lists', () => {
    const value = '{"gpt-4o":["gpt-4o-mini","claude-3-5-sonnet"],"a":[]}';
    expect(normalize('ModelFallbacks', value)).toBe(value);
  });

  it.each([
    ['bad JSON', '{"gpt-4o":'],
    ['a list that is no array', '{"gpt-4o":"gpt-4o-mini"}'],
    ['a non-string entry', '{"gpt-4o":["gpt-4o-mini",3]}'],
    ['a model listing itself', '{"gpt-4o":["gpt-4o-mini","gpt-4o"]}'],
    ['more than five fallbacks', '{"a":["b","c","d","e","f","g"]}'],
    ['an empty fallback name', '{"a":[" "]}'],
    ['an empty model name', '{"":["b"]}'],
    ['an array', '[]'],
  ])('refuses %s', (_what, value) =>
    expectRejected('ModelFallbacks', value, 'option.invalid_json', { key: 'ModelFallbacks' }),
  );
});

describe('blankWhenAbsent: a PUT without value means the empty text (new-api)', () => {
  it('for text-like keys: strings, texts, addresses, the email whitelist and secrets', () => {
    for (const key of [
      'SMTPServer',
      'Notice',
      'ServerAddress',
      'EmailDomainWhitelist',
      'SMTPToken',
    ])
      expect([key, blankWhenAbsent(def(key))]).toEqual([key, true]);
  });

  it('never for switches, numbers or JSON maps: those need a value', () => {
    for (const key of ['DrawingEnabled', 'RetryTimes', 'QuotaPerUnit', 'ModelRatio', 'Chats'])
      expect([key, blankWhenAbsent(def(key))]).toEqual([key, false]);
  });
});
