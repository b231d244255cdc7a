import type { EventStore, Position } from '@tollgate/event-store';
import {
  ProjectionHost,
  type Projection,
  type ProjectionHostOptions,
  type ReadStore,
} from '@tollgate/read-store';
import { ProjectorHeadWriter } from './projector-head';

/**
 * The projections of a projecting process whose readers are other processes (scale-out, or the
 * projector child of a single gateway): a ProjectionHost that also records its position as the
 * projector head for them (a gateway projecting in its own process does not pay for it).
 */
export class RecordingProjectionHost extends ProjectionHost {
  private readonly head: ProjectorHeadWriter;
  private readonly onHead: ((position: Position) => void) | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    eventStore: EventStore,
    readStore: ReadStore,
    projections: readonly Projection[],
    options: ProjectionHostOptions & {
      onError: (projection: string, error: Error) => void;
      /** Told each new head at once (the gateway that started this projector: no polling). */
      onHead?: (position: Position) => void;
    },
  ) {
    super(eventStore, readStore, projections, options);
    this.head = new ProjectorHeadWriter(readStore, (error) => options.onError('$head', error));
    this.onHead = options.onHead;
  }

  override async start(): Promise<void> {
    // Until this process has loaded its checkpoints, no head: followers wait rather than trust one.
    await this.head.clear();
    this.unsubscribe = this.onAdvance(() => this.recordHead());
    await super.start();
    // Caught up without a single event to apply (an idle log) fires no advance: record it now.
    this.recordHead();
  }

  private recordHead(): void {
    const position = this.position();
    this.head.record(position);
    if (position) this.onHead?.(position);
  }

  override async stop(): Promise<void> {
    await super.stop();
    this.unsubscribe?.();
    await this.head.stop();
  }
}
