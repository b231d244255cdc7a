/**
 * The projector: the read models as their own process (docs/scale-out.md), for when the read side
 * needs its own CPU. It serves nothing; it follows the log and writes the read models and the
 * projector head that the gateways (SCALE_OUT=on, PROJECTIONS=off or auto) wait on.
 *
 * It joins DATA_DIR like a scale-out gateway and waits for the projector election
 * (DATA_DIR/projector.lock, or the projector lease on a shared MongoDB, which holds across
 * machines), so it never projects beside another projector; gateways left on PROJECTIONS=auto
 * stand by and take over if it dies.
 */
import { runProjector } from '@tollgate/gateway/projector-process';

runProjector().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
