import type { ExternalProvider } from '@tollgate/domain';

/** Who a provider says the caller is: its stable id plus hints for a new account. */
export interface ExternalProfile {
  readonly provider: ExternalProvider;
  readonly externalId: string;
  /** The provider's login name: the first username tried when registering. */
  readonly login: string;
  readonly displayName: string;
}
