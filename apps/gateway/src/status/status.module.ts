import { Module } from '@nestjs/common';
import { StatusController } from './status.controller';
import { StatusService } from './status.service';

/** Public status, notice and pages, group and model catalogues. */
@Module({
  controllers: [StatusController],
  providers: [StatusService],
})
export class StatusModule {}
