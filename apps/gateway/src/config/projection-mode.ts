import type { AppConfig } from './app-config';

/**
 * What this process does with the read models: `project` (write them), `follow` (read them and
 * wait on the projecting process's head) or `elect` (follow until it wins DATA_DIR/projector.lock,
 * then project). Alone, a gateway always projects; in scale-out, PROJECTIONS=auto elects one
 * projector among the processes sharing the read models (a lock in DATA_DIR, or a lease on a
 * shared MongoDB across machines): two runners writing the same read models are never assumed
 * safe (docs/scale-out.md#elections).
 */
export type ProjectionMode = 'project' | 'follow' | 'elect';

export function projectionMode(
  config: Pick<AppConfig, 'scaleOut' | 'projections'>,
): ProjectionMode {
  if (config.projections === 'on') return 'project';
  if (config.projections === 'off') return 'follow';
  if (!config.scaleOut) return 'project';
  return 'elect';
}
