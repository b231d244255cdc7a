import './relay-heap-flags-first';
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config';
import { createApp } from './create-app';
import { projectorChildFor } from './infrastructure/projector-child/projector-child';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config, undefined, projectorChildFor(config));
  await app.listen({ port: config.port, host: config.host });
  new Logger('Tollgate').log(
    `Listening on http://localhost:${config.port} (event store: ${config.eventStoreUrl ? 'EventStoreDB' : 'SQLite'}, read store: ${config.readStoreUrl ? 'MongoDB' : 'SQLite'}, data: ${config.dataDir})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
