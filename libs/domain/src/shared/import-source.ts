/**
 * Where an imported fact came from (UserImported, BalanceImported, TokenImported, …): the source
 * project, its table and the row's id.
 */
export interface ImportSource {
  readonly project: 'one-api' | 'new-api';
  readonly table: string;
  readonly rowId: number;
  /** When the import ran (ISO 8601): the entity's history begins "imported from … at …". */
  readonly importedAt: string;
}
