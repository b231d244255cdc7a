import { spec } from '@tollgate/testing';
import { fold } from '../shared/decider';
import {
  DEFAULT_MODEL_RATIO,
  MODEL_RATIO_KEYS,
  OPTION_CATALOGUE,
  isSecretOption,
  optionDefinition,
} from './option-catalogue';
import { defaultOptionValues, optionsDecider } from './options.decider';
import type { OptionsEvent, SealedSecret } from './options.events';

const changed = (key: string, value: string, previous: string): OptionsEvent => ({
  type: 'OptionChanged',
  data: { key, value, previous },
});
const sealed = (hash: string): SealedSecret => ({ cipher: `cipher-of-${hash}`, hash });
const secretChanged = (key: string, value: SealedSecret | null): OptionsEvent => ({
  type: 'SecretOptionChanged',
  data: { key, sealed: value },
});
const defaultOf = (key: string): string => OPTION_CATALOGUE[key]!.defaultValue;

const SERVER = changed('ServerAddress', 'https://gw.example.com', '');

describe('option catalogue', () => {
  it('knows only its own keys', () => {
    expect(optionDefinition('SystemName')?.kind).toBe('string');
    expect(optionDefinition('toString')).toBeUndefined();
    expect(optionDefinition('__proto__')).toBeUndefined();
    expect(isSecretOption('SMTPToken')).toBe(true);
    expect(isSecretOption('SMTPAccount')).toBe(false);
    expect(isSecretOption('NoSuchKey')).toBe(false);
  });
});

describe('optionsDecider', () => {
  it('starts from the defaults of every non-secret key and no secret', () => {
    expect(optionsDecider.initialState.secretHashes).toEqual({});
    expect(optionsDecider.initialState.values).toEqual(defaultOptionValues());
    expect(optionsDecider.initialState.values['SystemName']).toBe('Tollgate');
    expect(optionsDecider.initialState.values).not.toHaveProperty('SMTPToken');
  });

  describe('ChangeOption', () => {
    it('records the normalized value and the previous one (the default at first)', () => {
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeOption', key: 'SystemName', value: '  My Gateway ' })
        .then([changed('SystemName', 'My Gateway', 'Tollgate')]);
    });

    it('takes the previous value from earlier changes', () => {
      spec(optionsDecider)
        .given([changed('RetryTimes', '2', '0')])
        .when({ type: 'ChangeOption', key: 'RetryTimes', value: '005' })
        .then([changed('RetryTimes', '5', '2')]);
    });

    it('stores addresses without trailing slashes', () => {
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeOption', key: 'ServerAddress', value: 'https://gw.example.com/' })
        .then([changed('ServerAddress', 'https://gw.example.com', '')]);
    });

    it('rejects an unknown key, naming it', () => {
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeOption', key: 'NoSuchOption', value: 'x' })
        .thenRejects('option.unknown_key', { key: 'NoSuchOption' });
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeOption', key: 'constructor', value: 'x' })
        .thenRejects('option.unknown_key', { key: 'constructor' });
    });

    it('refuses a secret key: secrets go through ChangeSecretOption', () => {
      spec(optionsDecider)
        .given([SERVER])
        .when({ type: 'ChangeOption', key: 'SMTPToken', value: 'hunter2' })
        .thenRejects('common.invalid_params');
    });

    it('rejects an invalid value with the kind-specific code', () => {
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeOption', key: 'RegisterEnabled', value: 'maybe' })
        .thenRejects('option.invalid_bool', { key: 'RegisterEnabled' });
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeOption', key: 'TopupGroupRatio', value: '{' })
        .thenRejects('option.topup_group_ratio_invalid_json');
    });

    it('rejects a value equal to the default', () => {
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeOption', key: 'RegisterEnabled', value: 'true' })
        .thenRejects('option.unchanged');
    });

    it('rejects a value that normalizes to the current one', () => {
      spec(optionsDecider)
        .given([SERVER])
        .when({ type: 'ChangeOption', key: 'ServerAddress', value: ' https://gw.example.com// ' })
        .thenRejects('option.unchanged');
      spec(optionsDecider)
        .given([
          changed('EmailDomainWhitelist', 'gmail.com,qq.com', defaultOf('EmailDomainWhitelist')),
        ])
        .when({
          type: 'ChangeOption',
          key: 'EmailDomainWhitelist',
          value: ' Gmail.com,GMAIL.com\nQQ.com ',
        })
        .thenRejects('option.unchanged');
    });

    describe('keys needing a server address', () => {
      it.each(['PayAddress', 'EpayId'])('rejects setting %s before ServerAddress', (key) => {
        const value = key === 'PayAddress' ? 'https://pay.example.com' : '1001';
        spec(optionsDecider)
          .given([])
          .when({ type: 'ChangeOption', key, value })
          .thenRejects('option.server_address_required');
      });

      it.each([
        ['PayAddress', 'https://pay.example.com/', 'https://pay.example.com'],
        ['EpayId', ' 1001 ', '1001'],
      ])('accepts %s once ServerAddress is set', (key, value, stored) => {
        spec(optionsDecider)
          .given([SERVER])
          .when({ type: 'ChangeOption', key, value })
          .then([changed(key, stored, '')]);
      });

      it('lets the value be cleared without a server address', () => {
        const clearedServer = changed('ServerAddress', '', 'https://gw.example.com');
        spec(optionsDecider)
          .given([SERVER, changed('EpayId', '1001', ''), clearedServer])
          .when({ type: 'ChangeOption', key: 'EpayId', value: '' })
          .then([changed('EpayId', '', '1001')]);
      });

      it('does not apply to other keys', () => {
        spec(optionsDecider)
          .given([])
          .when({
            type: 'ChangeOption',
            key: 'CustomCallbackAddress',
            value: 'https://cb.example.com',
          })
          .then([changed('CustomCallbackAddress', 'https://cb.example.com', '')]);
      });
    });

    it('evolves the current value so that the same change is then unchanged', () => {
      const state = fold(optionsDecider, [changed('Notice', 'hello', '')]);
      expect(state.values['Notice']).toBe('hello');
      spec(optionsDecider)
        .given([changed('Notice', 'hello', '')])
        .when({ type: 'ChangeOption', key: 'Notice', value: 'hello' })
        .thenRejects('option.unchanged');
    });
  });

  describe('ChangeSecretOption', () => {
    it('records the sealed secret', () => {
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeSecretOption', key: 'SMTPToken', sealed: sealed('h1') })
        .then([secretChanged('SMTPToken', sealed('h1'))]);
    });

    it('replaces a secret with a different one', () => {
      spec(optionsDecider)
        .given([secretChanged('SMTPToken', sealed('h1'))])
        .when({ type: 'ChangeSecretOption', key: 'SMTPToken', sealed: sealed('h2') })
        .then([secretChanged('SMTPToken', sealed('h2'))]);
    });

    it('clears a secret', () => {
      spec(optionsDecider)
        .given([secretChanged('GitHubClientSecret', sealed('h1'))])
        .when({ type: 'ChangeSecretOption', key: 'GitHubClientSecret', sealed: null })
        .then([secretChanged('GitHubClientSecret', null)]);
    });

    it('rejects the same secret as unchanged (same keyed hash, whatever the cipher)', () => {
      spec(optionsDecider)
        .given([secretChanged('SMTPToken', sealed('h1'))])
        .when({
          type: 'ChangeSecretOption',
          key: 'SMTPToken',
          sealed: { cipher: 'another-nonce', hash: 'h1' },
        })
        .thenRejects('option.unchanged');
    });

    it('rejects clearing a secret that is already empty', () => {
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeSecretOption', key: 'SMTPToken', sealed: null })
        .thenRejects('option.unchanged');
      spec(optionsDecider)
        .given([secretChanged('SMTPToken', sealed('h1')), secretChanged('SMTPToken', null)])
        .when({ type: 'ChangeSecretOption', key: 'SMTPToken', sealed: null })
        .thenRejects('option.unchanged');
    });

    it('keeps each secret apart', () => {
      const state = fold(optionsDecider, [
        secretChanged('SMTPToken', sealed('h1')),
        secretChanged('TelegramBotToken', sealed('t1')),
        secretChanged('SMTPToken', null),
      ]);
      expect(state.secretHashes).toEqual({ TelegramBotToken: 't1' });
    });

    it('rejects an unknown key and a non-secret key', () => {
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeSecretOption', key: 'NoSuchSecret', sealed: sealed('h') })
        .thenRejects('option.unknown_key', { key: 'NoSuchSecret' });
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeSecretOption', key: 'SystemName', sealed: sealed('h') })
        .thenRejects('common.invalid_params');
    });

    it('requires ServerAddress before setting EpayKey, not before clearing it', () => {
      spec(optionsDecider)
        .given([])
        .when({ type: 'ChangeSecretOption', key: 'EpayKey', sealed: sealed('k') })
        .thenRejects('option.server_address_required');
      spec(optionsDecider)
        .given([SERVER])
        .when({ type: 'ChangeSecretOption', key: 'EpayKey', sealed: sealed('k') })
        .then([secretChanged('EpayKey', sealed('k'))]);
      spec(optionsDecider)
        .given([
          SERVER,
          secretChanged('EpayKey', sealed('k')),
          changed('ServerAddress', '', 'https://gw.example.com'),
        ])
        .when({ type: 'ChangeSecretOption', key: 'EpayKey', sealed: null })
        .then([secretChanged('EpayKey', null)]);
    });
  });

  describe('ResetModelRatios', () => {
    it('produces nothing when every ratio is already the default', () => {
      spec(optionsDecider).given([]).when({ type: 'ResetModelRatios' }).then([]);
    });

    it('resets only the keys that changed', () => {
      const custom = JSON.stringify({ ...DEFAULT_MODEL_RATIO, 'gpt-4o': 2 });
      spec(optionsDecider)
        .given([changed('ModelRatio', custom, defaultOf('ModelRatio'))])
        .when({ type: 'ResetModelRatios' })
        .then([changed('ModelRatio', defaultOf('ModelRatio'), custom)]);
    });

    it('resets all three when all changed, in catalogue order', () => {
      expect(MODEL_RATIO_KEYS).toEqual(['ModelRatio', 'CompletionRatio', 'ModelPrice']);
      const history = [
        changed('ModelPrice', '{"dall-e-3": 1}', defaultOf('ModelPrice')),
        changed('CompletionRatio', '{}', defaultOf('CompletionRatio')),
        changed('ModelRatio', '{}', defaultOf('ModelRatio')),
      ];
      spec(optionsDecider)
        .given(history)
        .when({ type: 'ResetModelRatios' })
        .then([
          changed('ModelRatio', defaultOf('ModelRatio'), '{}'),
          changed('CompletionRatio', defaultOf('CompletionRatio'), '{}'),
          changed('ModelPrice', defaultOf('ModelPrice'), '{"dall-e-3": 1}'),
        ]);
    });

    it('produces nothing after a key was changed and changed back', () => {
      spec(optionsDecider)
        .given([
          changed('ModelRatio', '{}', defaultOf('ModelRatio')),
          changed('ModelRatio', defaultOf('ModelRatio'), '{}'),
        ])
        .when({ type: 'ResetModelRatios' })
        .then([]);
    });

    it('leaves other ratio keys alone', () => {
      spec(optionsDecider)
        .given([changed('GroupRatio', '{"default": 2}', defaultOf('GroupRatio'))])
        .when({ type: 'ResetModelRatios' })
        .then([]);
    });
  });
});

describe('optionsDecider: switches that need their configuration first', () => {
  const change = (key: string, value: string) => ({ type: 'ChangeOption' as const, key, value });
  const sealed = { cipher: 'c', hash: 'h' };

  it('refuses GitHub OAuth until the client id and secret are set, then allows it', () => {
    spec(optionsDecider)
      .given([])
      .when(change('GitHubOAuthEnabled', 'true'))
      .thenRejects('option.github_oauth_incomplete');
    spec(optionsDecider)
      .given([
        { type: 'OptionChanged', data: { key: 'GitHubClientId', value: 'id', previous: '' } },
        { type: 'SecretOptionChanged', data: { key: 'GitHubClientSecret', sealed } },
      ])
      .when(change('GitHubOAuthEnabled', 'true'))
      .then([
        {
          type: 'OptionChanged',
          data: { key: 'GitHubOAuthEnabled', value: 'true', previous: 'false' },
        },
      ]);
  });

  it('refuses email verification without SMTP settings', () => {
    spec(optionsDecider)
      .given([])
      .when(change('EmailVerificationEnabled', 'true'))
      .thenRejects('option.smtp_incomplete');
  });

  it('refuses the email domain restriction with an empty whitelist', () => {
    spec(optionsDecider)
      .given([
        {
          type: 'OptionChanged',
          data: { key: 'EmailDomainWhitelist', value: '', previous: 'gmail.com' },
        },
      ])
      .when(change('EmailDomainRestrictionEnabled', 'true'))
      .thenRejects('option.email_whitelist_empty');
  });

  it('always allows turning a switch off', () => {
    spec(optionsDecider)
      .given([
        {
          type: 'OptionChanged',
          data: { key: 'TurnstileCheckEnabled', value: 'true', previous: 'false' },
        },
      ])
      .when(change('TurnstileCheckEnabled', 'false'))
      .then([
        {
          type: 'OptionChanged',
          data: { key: 'TurnstileCheckEnabled', value: 'false', previous: 'true' },
        },
      ]);
  });
});
