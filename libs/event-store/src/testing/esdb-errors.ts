import { CancelledError, NotLeaderError } from '@eventstore/db-client';

/**
 * The errors client 6.2.1 raises when the node it talks to loses leadership: NotLeaderError (the
 * server names the new leader in the call's metadata) and CancelledError (gRPC CANCELLED, a call the
 * server dropped). Built the way the client builds them, for FakeEsdbClient.failNext().
 */
export function notLeaderError(): NotLeaderError {
  const metadata = { 'leader-endpoint-host': 'node-2', 'leader-endpoint-port': '2113' };
  return new NotLeaderError({
    code: 5,
    message: 'Leader info available',
    metadata: { getMap: () => metadata },
  } as never);
}

/** gRPC status CANCELLED */
const GRPC_CANCELLED = 1;

export function cancelledError(): CancelledError {
  return new CancelledError({ code: GRPC_CANCELLED, message: 'Call cancelled' } as never);
}
