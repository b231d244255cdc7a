import type { Projection } from '@tollgate/read-store';
import {
  IDENTITY_GUARD_KIND,
  identityGuardValue,
  normalizeEmail,
  normalizeUsername,
  type ExternalProvider,
  type UniqueClaimEvent,
  type UserEvent,
} from '@tollgate/domain';

export const UNIQUE_CLAIMS = 'unique_claims';

/**
 * One document per held uniqueness guard (`username-<name>`, `affcode-<code>`). `settled` says the
 * owner's user stream shows the value (registered with it, or renamed to it); an unsettled claim
 * is a step in progress, or what a crash left behind (start-up recovery releases those).
 */
export interface UniqueClaimDocument {
  _id: string;
  kind: string;
  value: string;
  owner_id: number;
  settled: boolean;
  /** ms */
  claimed_at: number;
}

export const uniqueClaimsProjection: Projection = {
  name: 'unique_claims',
  // 2: UserImported settles the claims an import made.
  version: 2,
  collections: [{ name: UNIQUE_CLAIMS, indexes: [{ fields: { settled: 1 } }] }],
  eventTypes: [
    'UniqueValueClaimed',
    'UniqueValueReleased',
    'UserRegistered',
    'UserImported',
    'UserRenamed',
    'UserExternalIdentityBound',
    'UserEmailBound',
  ] satisfies Array<UniqueClaimEvent['type'] | UserEvent['type']>,
  async apply(event, session) {
    const claims = session.collection<UniqueClaimDocument>(UNIQUE_CLAIMS);
    const e = { type: event.type, data: event.data } as UniqueClaimEvent | UserEvent;
    const settle = (id: string, settled: boolean) =>
      claims.updateMany({ _id: id }, { $set: { settled } });
    switch (e.type) {
      case 'UniqueValueClaimed':
        await claims.put({
          _id: event.streamId,
          kind: event.streamId.slice(0, event.streamId.indexOf('-')),
          value: e.data.value,
          owner_id: e.data.ownerId,
          settled: false,
          claimed_at: event.recordedAt.getTime(),
        });
        return;
      case 'UniqueValueReleased':
        await claims.delete(event.streamId);
        return;
      case 'UserRegistered':
        await settle(`username-${normalizeUsername(e.data.username)}`, true);
        await settle(`affcode-${e.data.affCode}`, true);
        if (e.data.emailVerified) await settle(`email-${normalizeEmail(e.data.email)}`, true);
        return;
      case 'UserImported':
        await settle(`username-${normalizeUsername(e.data.username)}`, true);
        if (e.data.affCode) await settle(`affcode-${e.data.affCode}`, true);
        if (e.data.emailVerified && e.data.email)
          await settle(`email-${normalizeEmail(e.data.email)}`, true);
        for (const [provider, externalId] of Object.entries(e.data.identities))
          if (externalId)
            await settle(
              `${IDENTITY_GUARD_KIND[provider as ExternalProvider]}-${identityGuardValue(externalId)}`,
              true,
            );
        return;
      case 'UserEmailBound':
        await settle(`email-${normalizeEmail(e.data.email)}`, true);
        // Like a rename: the old address waits for its release; a crash leaves it to recovery.
        if (e.data.previous) await settle(`email-${normalizeEmail(e.data.previous)}`, false);
        return;
      case 'UserExternalIdentityBound':
        await settle(
          `${IDENTITY_GUARD_KIND[e.data.provider]}-${identityGuardValue(e.data.externalId)}`,
          true,
        );
        return;
      case 'UserRenamed': {
        const [from, to] = [normalizeUsername(e.data.from), normalizeUsername(e.data.to)];
        if (from === to) return;
        await settle(`username-${to}`, true);
        // The old name waits for its release; a crash before it leaves it to recovery.
        await settle(`username-${from}`, false);
        return;
      }
    }
  },
};
