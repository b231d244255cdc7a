/**
 * A rejected command. `code` is stable and maps to a translated message at the API edge
 * (see apps/gateway/src/shared/i18n); `params` fill its placeholders.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(code);
  }
}
