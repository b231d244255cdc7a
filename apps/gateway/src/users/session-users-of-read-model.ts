import { Inject, Injectable } from '@nestjs/common';
import type { ReadStore } from '@tollgate/read-store';
import type { SessionUserRecord, SessionUsers } from '../auth/session-users';
import { READ_STORE } from '../infrastructure/injection-tokens';
import { USERS, type UserDocument } from './user.document';

/** The authenticator's user lookups, answered from the users read model. */
@Injectable()
export class SessionUsersOfReadModel implements SessionUsers {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  byId(id: number): Promise<SessionUserRecord | null> {
    return this.users().get(String(id));
  }

  byAccessTokenHash(hash: string): Promise<SessionUserRecord | null> {
    return this.users().findOne({ access_token_hash: hash });
  }

  private users() {
    return this.readStore.collection<UserDocument>(USERS);
  }
}
