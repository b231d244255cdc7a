import { Inject, Injectable } from '@nestjs/common';
import type { ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../infrastructure/injection-tokens';
import { ROOT_SETUP_ID, SETUP_STATE, type SetupStateDocument } from './setup-state.projection';

/** Reads whether the first-run wizard is done (`/api/status.setup`, GET /api/setup). */
@Injectable()
export class SetupState {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  /** The root still on its default password, or null once setup is done. */
  async pendingRoot(): Promise<number | null> {
    const doc = await this.readStore.collection<SetupStateDocument>(SETUP_STATE).get(ROOT_SETUP_ID);
    return doc?.default_password ? doc.user_id : null;
  }

  /** Done (new-api's `setup: true`) unless the bootstrapped root still has its default password. */
  async isDone(): Promise<boolean> {
    return (await this.pendingRoot()) === null;
  }
}
