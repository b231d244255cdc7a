/** A model name no channel lists: clients can send any string, so they all share one series. */
export const OTHER_MODEL = 'other';
/** The request was refused before its model was read. */
export const NO_MODEL = 'none';

/** What the label needs from the routing table (read-only). */
export interface ModelSource {
  /** Replaced whole on every routing change: its identity says whether `channels()` changed. */
  servedModels(): ReadonlyMap<string, readonly string[]>;
  all(): ReadonlyArray<{ readonly models: readonly string[] }>;
}

/**
 * Bounds the `model` label to the models the channels list (any status: a disabled channel's model
 * is still a known name). The set is rebuilt only when the routing table changed, so a warm lookup
 * is one identity check and one Set lookup, and returns a string that already exists.
 */
export class ModelLabels {
  private version: ReadonlyMap<string, readonly string[]> | undefined;
  private known: ReadonlySet<string> = new Set();

  constructor(private readonly source: ModelSource) {}

  label(model: string): string {
    if (model === '') return NO_MODEL;
    const version = this.source.servedModels();
    if (version !== this.version) {
      this.version = version;
      this.known = new Set(this.source.all().flatMap((channel) => channel.models));
    }
    return this.known.has(model) ? model : OTHER_MODEL;
  }
}
