import type { AppConfig } from './app-config';

/**
 * What this process does with the read models: `project` (write them), `follow` (read them and
 * wait on the projecting process's head) or `elect` (follow until it wins DATA_DIR/projector.lock,
 * then project). Alone, a gateway always projects; in scale-out, PROJECTIONS=auto elects one
 * projector when the read store is the embedded SQLite file, while on MongoDB every process
 * projects (its checkpoints make concurrent runners safe).
 */
export type ProjectionMode = 'project' | 'follow' | 'elect';

export function projectionMode(
  config: Pick<AppConfig, 'scaleOut' | 'projections' | 'readStoreUrl'>,
): ProjectionMode {
  if (config.projections === 'on') return 'project';
  if (config.projections === 'off') return 'follow';
  if (!config.scaleOut || config.readStoreUrl) return 'project';
  return 'elect';
}
