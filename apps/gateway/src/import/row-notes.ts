import type { ReportItem } from './import-mapping';

/** The report items of one source row, in the order its fields were mapped. */
export class RowNotes {
  readonly items: ReportItem[] = [];

  constructor(private readonly at: { readonly table: string; readonly rowId: number }) {}

  changed(field: string, reason: string): void {
    this.items.push({ ...this.at, action: 'changed', field, reason });
  }

  dropped(field: string, reason: string): void {
    this.items.push({ ...this.at, action: 'dropped', field, reason });
  }
}

/** A channels row's notes, plus the reasons the channel cannot be enabled here (it comes in disabled by hand). */
export class ChannelRowNotes extends RowNotes {
  readonly disable: string[] = [];
}
