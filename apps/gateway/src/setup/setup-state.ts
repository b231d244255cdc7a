import { Inject, Injectable } from '@nestjs/common';
import type { ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../infrastructure/injection-tokens';
import { ROOT_SETUP_ID, SETUP_STATE, type SetupStateDocument } from './setup-state.projection';

/** Reads whether the first-run wizard is done (`/api/status.setup`, GET /api/setup). */
@Injectable()
export class SetupState {
  /**
   * Set once the bootstrapped root is seen off its default password: that never reverts (the log
   * is append-only, a bootstrap happens on an empty store only), so GET /api/status, polled by
   * every console, stops reading the store. An absent document (a rebuild under way) is no proof.
   */
  private done = false;

  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  /** The root still on its default password, or null once setup is done. */
  async pendingRoot(): Promise<number | null> {
    if (this.done) return null;
    const doc = await this.readStore.collection<SetupStateDocument>(SETUP_STATE).get(ROOT_SETUP_ID);
    if (doc && !doc.default_password) this.done = true;
    return doc?.default_password ? doc.user_id : null;
  }

  /** Done (new-api's `setup: true`) unless the bootstrapped root still has its default password. */
  async isDone(): Promise<boolean> {
    return (await this.pendingRoot()) === null;
  }
}
