/** What a provider answered when a call failed (HTTP status and the OpenAI-style error fields). */
export interface UpstreamFailure {
  readonly status: number;
  readonly message: string;
  readonly type?: string;
  readonly code?: string;
}

const DISABLING_CODES = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active']);
const DISABLING_TYPES = new Set([
  'insufficient_quota',
  'insufficient_user_quota',
  'authentication_error',
  'permission_error',
  'forbidden',
]);
/** One-api's and new-api's default AutomaticDisableKeywords, matched case-insensitively. */
export const DEFAULT_DISABLE_KEYWORDS: readonly string[] = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
  'The security token included in the request is invalid',
  'Operation not allowed',
  'Your account is not authorized',
];

/**
 * Whether a failure says the channel's account or key is unusable (so the channel should stop
 * being picked), as opposed to a passing fault (429 rate limit, 5xx, timeouts). `sentByClient`
 * tells whether the request itself carried a keyword (case-insensitive).
 */
export function failureDisablesChannel(
  failure: UpstreamFailure,
  channelType: number,
  keywords: readonly string[] = DEFAULT_DISABLE_KEYWORDS,
  sentByClient: (keyword: string) => boolean = () => false,
): boolean {
  if (failure.status === 401) return true;
  // Gemini answers 403 for a revoked key; elsewhere 403 is often a per-model refusal.
  if (failure.status === 403 && channelType === 24) return true;
  if (failure.code && DISABLING_CODES.has(failure.code)) return true;
  if (failure.type && DISABLING_TYPES.has(failure.type)) return true;
  const message = failure.message.toLowerCase();
  // Upstreams quote the request in their errors ("Invalid value: '…'"): a keyword the client
  // itself sent proves nothing about the channel's account, and must not let a client disable it.
  return keywords.some(
    (keyword) =>
      keyword !== '' && message.includes(keyword.toLowerCase()) && !sentByClient(keyword),
  );
}
