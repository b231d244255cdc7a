import { DomainError, normalizeOptionValue, optionDefinition } from '@tollgate/domain';
import { translate } from '../shared/i18n/messages';
import type { Mapped, ReportItem } from './import-mapping';
import type { SourceProject } from './source-database';

type Row = Record<string, unknown>;

/** An options row as the option command to run: a secret's value in clear (sealed by the writer). */
export interface OptionFacts {
  /** The options table has no id: the row's place in key order stands for it in reports and ids. */
  readonly rowId: number;
  /** The key in the source. */
  readonly sourceKey: string;
  /** Tollgate's key. */
  readonly key: string;
  /** Validated and normalized like an admin's save; for a secret, the clear value (never reported). */
  readonly value: string;
  readonly secret: boolean;
}
export interface MappedOption {
  readonly option: OptionFacts;
  readonly items: ReportItem[];
}

/** one-api's OpenID Connect keys → new-api's (and Tollgate's) dotted `oidc.*` keys. */
export const ONE_API_OPTION_KEYS: Readonly<Record<string, string>> = {
  OidcEnabled: 'oidc.enabled',
  OidcClientId: 'oidc.client_id',
  OidcClientSecret: 'oidc.client_secret',
  OidcWellKnown: 'oidc.well_known',
  OidcAuthorizationEndpoint: 'oidc.authorization_endpoint',
  OidcTokenEndpoint: 'oidc.token_endpoint',
  OidcUserinfoEndpoint: 'oidc.user_info_endpoint',
};

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** One options row (key, value) as an option change, or why it is skipped. */
export function mapOptionRow(
  project: SourceProject,
  row: Row,
  rowId: number,
): Mapped<MappedOption> {
  const sourceKey = text(row['key']).trim();
  const at = { table: 'options', rowId };
  const skip = (reason: string) => ({
    skipped: { ...at, action: 'skipped' as const, field: sourceKey, reason },
  });
  if (sourceKey === '') return skip('empty key');
  const key = (project === 'one-api' ? ONE_API_OPTION_KEYS[sourceKey] : undefined) ?? sourceKey;
  const definition = optionDefinition(key);
  if (!definition) return skip('no counterpart in Tollgate');
  const items: ReportItem[] = [];
  if (key !== sourceKey)
    items.push({ ...at, action: 'changed', field: sourceKey, reason: `renamed ${key}` });
  const raw = text(row['value']);
  if (definition.secret) {
    return { option: { rowId, sourceKey, key, value: raw.trim(), secret: true }, items };
  }
  try {
    const value = normalizeOptionValue(key, definition, raw);
    return { option: { rowId, sourceKey, key, value, secret: false }, items };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return skip(`invalid value: ${translate(error.code, error.params, 'en')}`);
  }
}

/**
 * The order options are applied in: ServerAddress first (payment addresses need it), switches
 * last (turning a sign-in method on needs its client id and secret set before).
 */
export function optionApplyOrder(a: OptionFacts, b: OptionFacts): number {
  const rank = (o: OptionFacts) =>
    o.key === 'ServerAddress' ? 0 : optionDefinition(o.key)?.kind === 'bool' ? 2 : 1;
  return rank(a) - rank(b) || a.rowId - b.rowId;
}
