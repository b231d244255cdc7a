import type { Projection } from '@tollgate/read-store';
import type { UserPasswordChanged, UserRegistered } from '@tollgate/domain';

export const SETUP_STATE = 'setup_state';
/** The one document: the bootstrapped root and whether its default password is still in place. */
export const ROOT_SETUP_ID = 'root';

export interface SetupStateDocument {
  _id: string;
  [key: string]: unknown;
  /** The user the bootstrap created as root / 123456. */
  user_id: number;
  /** True until that user's first password change (the wizard's, or any other). */
  default_password: boolean;
}

/**
 * setup_state: whether new-api's first-run wizard is still open, i.e. root still has the default
 * password the bootstrap gave it. Known from events only (no password is kept or compared): the
 * bootstrap's UserRegistered sets it, the first UserPasswordChanged of that user clears it.
 */
export const setupStateProjection: Projection = {
  name: 'setup-state',
  version: 1,
  collections: [{ name: SETUP_STATE }],
  // UserImported: a one-api / new-api user replacing the default root closes the wizard too.
  eventTypes: ['UserRegistered', 'UserPasswordChanged', 'UserImported'],
  async apply(event, session) {
    const docs = session.collection<SetupStateDocument>(SETUP_STATE);
    const e = { type: event.type, data: event.data } as UserRegistered | UserPasswordChanged;
    if (e.type === 'UserRegistered') {
      if (e.data.source !== 'bootstrap') return;
      await docs.put({ _id: ROOT_SETUP_ID, user_id: e.data.userId, default_password: true });
      return;
    }
    const current = await docs.get(ROOT_SETUP_ID);
    if (current?.default_password && current.user_id === e.data.userId)
      await docs.put({ ...current, default_password: false });
  },
};
