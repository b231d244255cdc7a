import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import {
  KEYS_NEEDING_SERVER_ADDRESS,
  MODEL_RATIO_KEYS,
  OPTION_CATALOGUE,
  optionDefinition,
} from './option-catalogue';
import { upcastOptionEvent } from './legacy-option-keys';
import { normalizeOptionValue } from './option-value';
import type { OptionsEvent, SealedSecret } from './options.events';

export interface OptionsState {
  /** Current plain values of non-secret keys (defaults until changed). */
  readonly values: Readonly<Record<string, string>>;
  /** Keyed hash of each secret's current value; absent means empty. */
  readonly secretHashes: Readonly<Record<string, string>>;
}

export type OptionsCommand =
  | { readonly type: 'ChangeOption'; readonly key: string; readonly value: string }
  /** The caller seals the secret (crypto is I/O); `sealed` null clears it. */
  | {
      readonly type: 'ChangeSecretOption';
      readonly key: string;
      readonly sealed: SealedSecret | null;
    }
  | { readonly type: 'ResetModelRatios' };

/**
 * Switches that cannot be turned on before what they need is configured (one-api's and new-api's
 * checks).
 */
const ENABLE_REQUIREMENTS: Readonly<
  Record<string, { values?: string[]; secrets?: string[]; code: string }>
> = {
  GitHubOAuthEnabled: {
    values: ['GitHubClientId'],
    secrets: ['GitHubClientSecret'],
    code: 'option.github_oauth_incomplete',
  },
  WeChatAuthEnabled: {
    values: ['WeChatServerAddress'],
    secrets: ['WeChatServerToken'],
    code: 'option.wechat_incomplete',
  },
  TurnstileCheckEnabled: {
    values: ['TurnstileSiteKey'],
    secrets: ['TurnstileSecretKey'],
    code: 'option.turnstile_incomplete',
  },
  TelegramOAuthEnabled: {
    values: ['TelegramBotName'],
    secrets: ['TelegramBotToken'],
    code: 'option.telegram_incomplete',
  },
  'oidc.enabled': {
    // The discovery document is the only source of the issuer and keys the id_token is checked with.
    values: ['oidc.client_id', 'oidc.well_known'],
    secrets: ['oidc.client_secret'],
    code: 'oauth.oidc_incomplete',
  },
  LinuxDOOAuthEnabled: {
    values: ['LinuxDOClientId'],
    secrets: ['LinuxDOClientSecret'],
    code: 'option.linuxdo_incomplete',
  },
  EmailVerificationEnabled: {
    values: ['SMTPServer', 'SMTPAccount'],
    code: 'option.smtp_incomplete',
  },
  EmailDomainRestrictionEnabled: {
    values: ['EmailDomainWhitelist'],
    code: 'option.email_whitelist_empty',
  },
};

function assertEnableable(key: string, value: string, state: OptionsState): void {
  const requirement = ENABLE_REQUIREMENTS[key];
  if (!requirement || value !== 'true') return;
  const missing =
    (requirement.values ?? []).some((k) => !state.values[k]) ||
    (requirement.secrets ?? []).some((k) => !state.secretHashes[k]);
  if (missing) throw new DomainError(requirement.code);
}

export function defaultOptionValues(): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, definition] of Object.entries(OPTION_CATALOGUE)) {
    if (!definition.secret) values[key] = definition.defaultValue;
  }
  return values;
}

export const initialOptionsState: OptionsState = {
  values: defaultOptionValues(),
  secretHashes: {},
};

export function evolveOptions(state: OptionsState, recorded: OptionsEvent): OptionsState {
  const event = upcastOptionEvent(recorded);
  if (!event) return state;
  if (event.type === 'OptionChanged') {
    return { ...state, values: { ...state.values, [event.data.key]: event.data.value } };
  }
  const { [event.data.key]: _old, ...rest } = state.secretHashes;
  return {
    ...state,
    secretHashes: event.data.sealed ? { ...rest, [event.data.key]: event.data.sealed.hash } : rest,
  };
}

function knownDefinition(key: string, secret: boolean) {
  const definition = optionDefinition(key);
  if (!definition) throw new DomainError('option.unknown_key', { key });
  if (Boolean(definition.secret) !== secret) throw new DomainError('common.invalid_params');
  return definition;
}

export const optionsDecider: Decider<OptionsCommand, OptionsState, OptionsEvent> = {
  // 2: the OpenID Connect keys were renamed (legacy-option-keys.ts); older snapshots hold old keys.
  snapshotVersion: 2,
  initialState: initialOptionsState,
  evolve: evolveOptions,
  decide(command, state) {
    switch (command.type) {
      case 'ChangeOption': {
        const definition = knownDefinition(command.key, false);
        const value = normalizeOptionValue(command.key, definition, command.value);
        const previous = state.values[command.key] ?? definition.defaultValue;
        if (value === previous) throw new DomainError('option.unchanged');
        assertEnableable(command.key, value, state);
        if (
          KEYS_NEEDING_SERVER_ADDRESS.includes(command.key) &&
          value !== '' &&
          !state.values['ServerAddress']
        )
          throw new DomainError('option.server_address_required');
        return [{ type: 'OptionChanged', data: { key: command.key, value, previous } }];
      }
      case 'ChangeSecretOption': {
        knownDefinition(command.key, true);
        const current = state.secretHashes[command.key] ?? null;
        if ((command.sealed?.hash ?? null) === current) throw new DomainError('option.unchanged');
        if (
          KEYS_NEEDING_SERVER_ADDRESS.includes(command.key) &&
          command.sealed &&
          !state.values['ServerAddress']
        )
          throw new DomainError('option.server_address_required');
        return [
          { type: 'SecretOptionChanged', data: { key: command.key, sealed: command.sealed } },
        ];
      }
      case 'ResetModelRatios':
        return MODEL_RATIO_KEYS.flatMap((key) => {
          const value = OPTION_CATALOGUE[key]!.defaultValue;
          const previous = state.values[key] ?? value;
          return value === previous
            ? []
            : [{ type: 'OptionChanged' as const, data: { key, value, previous } }];
        });
    }
  },
};
