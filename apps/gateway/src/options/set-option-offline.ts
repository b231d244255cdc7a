import { randomUUID } from 'node:crypto';
import { DomainError, SYSTEM_ACTOR } from '@tollgate/domain';
import type { AppConfig } from '../config/app-config';
import { openStores } from '../infrastructure/open-stores';
import type { ReadYourWrites } from '../infrastructure/read-your-writes';
import { SecretBox } from '../infrastructure/secret-box';
import { StreamCommands } from '../infrastructure/stream-commands';
import { ApiError } from '../shared/api-error';
import { translate } from '../shared/i18n/messages';
import { UpdateOptionCommand, UpdateOptionHandler } from './commands/update-option.handler';

/**
 * Lock-out recovery (`npm run option:set -- <key> <value>`, gateway stopped): the API's own option
 * command, validation included, recorded with the system actor. The read models and the options
 * cache pick the event up when the gateway next starts and catches up with the log.
 */
export async function setOptionOffline(config: AppConfig, key: string, value: string) {
  const stores = await openStores(config);
  try {
    const handler = new UpdateOptionHandler(
      new StreamCommands(stores.eventStore),
      new SecretBox(config.sessionSecret),
      // No projections run here: the next start projects the event.
      { waitFor: () => Promise.resolve() } as unknown as ReadYourWrites,
    );
    await handler.execute(
      new UpdateOptionCommand(key, value, {
        actor: SYSTEM_ACTOR,
        correlationId: randomUUID(),
        lang: 'en',
      }),
    );
  } catch (error) {
    if (error instanceof DomainError || error instanceof ApiError)
      throw new Error(translate(error.code, error.params, 'en'));
    throw error;
  } finally {
    await stores.close();
  }
}
