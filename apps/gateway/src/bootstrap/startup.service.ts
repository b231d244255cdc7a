import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { ProjectionHost } from '@tollgate/read-store';
import type { EventStore } from '@tollgate/event-store';
import { RecoverRegistrationsCommand } from '../accounts/commands/recover-registrations.handler';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { EVENT_STORE, PROJECTION_HOST } from '../infrastructure/injection-tokens';
import { OptionsCache } from '../options/options.cache';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { PayUnpaidRedemptionsCommand } from '../redemptions/commands/pay-unpaid-redemptions.handler';
import { CreditPaidTopUpsCommand } from '../topup/commands/credit-paid-topups.handler';
import { reportCatchUp } from './catch-up-progress';
import { BootstrapRootCommand } from './bootstrap-root.handler';

/**
 * Start-up order: wire the caches and pushes to the projections, catch the read models up with the
 * log (an empty read store is rebuilt here), load the options, replay the log into the hot caches
 * (balance book, token keys, routing table), then make sure root exists.
 */
@Injectable()
export class StartupService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Startup');

  constructor(
    @Inject(PROJECTION_HOST) private readonly host: ProjectionHost,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    private readonly options: OptionsCache,
    private readonly realtime: RealtimeGateway,
    private readonly commands: CommandBus,
    private readonly caches: CacheFeed,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.host.onApplied((projection, events) => {
      if (projection === 'options') this.options.apply(events);
      this.realtime.push(projection, events);
    });
    const started = Date.now();
    const stopReporting = reportCatchUp(this.host, await this.eventStore.headPosition(), (line) =>
      this.logger.log(line),
    );
    try {
      await this.host.start();
    } finally {
      stopReporting();
    }
    this.logger.log(`Read models caught up with the log in ${Date.now() - started} ms`);
    await this.options.load();
    const cacheStarted = Date.now();
    await this.caches.start();
    this.logger.log(`Hot caches replayed the log in ${Date.now() - cacheStarted} ms`);
    // Before root: a crash during the first start may have left root's own registration half-done.
    await this.commands.execute(new RecoverRegistrationsCommand());
    await this.commands.execute(new PayUnpaidRedemptionsCommand());
    await this.commands.execute(new CreditPaidTopUpsCommand());
    await this.commands.execute(new BootstrapRootCommand());
  }
}
