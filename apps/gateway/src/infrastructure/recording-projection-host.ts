import type { EventStore } from '@tollgate/event-store';
import {
  ProjectionHost,
  type Projection,
  type ProjectionHostOptions,
  type ReadStore,
} from '@tollgate/read-store';
import { ProjectorHeadWriter } from './projector-head';

/**
 * The projections of the projecting process in scale-out: a ProjectionHost that also records its
 * position as the projector head for the followers (single-process gateways do not pay for it).
 */
export class RecordingProjectionHost extends ProjectionHost {
  private readonly head: ProjectorHeadWriter;
  private unsubscribe: (() => void) | undefined;

  constructor(
    eventStore: EventStore,
    readStore: ReadStore,
    projections: readonly Projection[],
    options: ProjectionHostOptions & { onError: (projection: string, error: Error) => void },
  ) {
    super(eventStore, readStore, projections, options);
    this.head = new ProjectorHeadWriter(readStore, (error) => options.onError('$head', error));
  }

  override async start(): Promise<void> {
    // Until this process has loaded its checkpoints, no head: followers wait rather than trust one.
    await this.head.clear();
    this.unsubscribe = this.onAdvance(() => this.head.record(this.position()));
    await super.start();
    // Caught up without a single event to apply (an idle log) fires no advance: record it now.
    this.head.record(this.position());
  }

  override async stop(): Promise<void> {
    await super.stop();
    this.unsubscribe?.();
    await this.head.stop();
  }
}
