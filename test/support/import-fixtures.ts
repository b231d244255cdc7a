/**
 * one-api / new-api SQLite fixtures for import tests: `oneApiDatabase(dir, rows)`,
 * `newApiDatabase(dir, rows)` (the full Appendix A.1 / A.2 DDL, typed rows), `bcryptOf(password)`,
 * `key48(seed)`. They live in libs/testing so unit specs under apps/ can use them too.
 */
export * from '@tollgate/testing/import-fixtures';
