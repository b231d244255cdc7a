import { Module } from '@nestjs/common';
import { RealtimeGateway } from './realtime.gateway';

/** Socket.IO: live "what changed" hints to signed-in consoles. */
@Module({
  providers: [RealtimeGateway],
  exports: [RealtimeGateway],
})
export class RealtimeModule {}
