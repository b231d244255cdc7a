import { normalizeEmail } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import { UNIQUE_CLAIMS, type UniqueClaimDocument } from '../users/unique-claims.projection';
import { USERS, type UserDocument } from '../users/user.document';

/** Whether a verified email is held by an account (the guard stream's read model, races aside). */
export async function isEmailTaken(readStore: ReadStore, email: string): Promise<boolean> {
  const claim = await readStore
    .collection<UniqueClaimDocument>(UNIQUE_CLAIMS)
    .get(`email-${normalizeEmail(email)}`);
  return claim != null;
}

/**
 * The active account whose verified email this is. Unverified addresses are only what someone
 * typed at registration (possibly someone else's), so they never count.
 */
export async function accountByVerifiedEmail(
  readStore: ReadStore,
  email: string,
): Promise<UserDocument | null> {
  const found = await readStore
    .collection<UserDocument>(USERS)
    .find({ email: normalizeEmail(email), email_verified: true, DeletedAt: null }, { limit: 2 });
  return found.length === 1 ? found[0]! : null;
}
