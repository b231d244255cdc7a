import type { Database, Statement } from 'better-sqlite3';

/** Prepared statements keyed by SQL text; filters produce a bounded variety of shapes. */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: Database) {}

  get(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= 500) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
