import type BetterSqlite3 from 'better-sqlite3';

/** Events of one type a dictionary is built from, at most (more barely shrinks the payloads). */
const SAMPLES_PER_DICTIONARY = 8;

/*
 * The writer's dictionaries, as JavaScript source evaluated with the writer (see sqlite-writer.ts).
 * One per event type in use, the one built from the most samples. A batch carrying a type with no
 * dictionary yet, or with at least twice the samples its dictionary was built from (a fresh
 * gateway's first receipts come one by one), gets a new one, inserted by the batch's transaction:
 * rows never refer to a dictionary that was not committed with or before them. Rows are immutable
 * and so are dictionaries: an older one stays for the rows that use it.
 */
export const WRITER_DICTIONARIES_SOURCE = `(function writerDictionaries(db, codec) {
  const SAMPLES_PER_DICTIONARY = ${SAMPLES_PER_DICTIONARY};
  const GROWTH_FOR_NEW = 2;
  const insert = db.prepare('INSERT INTO payload_dictionaries (type, samples, bytes) VALUES (?, ?, ?)');
  const byType = new Map();
  const keep = (row) => {
    const current = byType.get(row.type);
    if (!current || row.samples > current.samples) byType.set(row.type, row);
  };
  for (const row of db.prepare('SELECT id, type, samples, bytes FROM payload_dictionaries ORDER BY id').all()) keep(row);

  const samplesByType = (batch) => {
    const samples = new Map();
    for (const append of batch.appends) {
      for (const event of append.events) {
        let list = samples.get(event.type);
        if (!list) samples.set(event.type, (list = []));
        if (list.length < SAMPLES_PER_DICTIONARY) list.push(event);
      }
    }
    return samples;
  };

  return {
    /** Inside the batch's transaction: adds what it needs; undo() forgets that if it fails. */
    prepare(batch) {
      const replaced = [];
      const undo = () => {
        for (const [type, previous] of replaced.reverse()) {
          if (previous) byType.set(type, previous);
          else byType.delete(type);
        }
      };
      try {
        for (const [type, samples] of samplesByType(batch)) {
          const current = byType.get(type);
          if (current && samples.length < current.samples * GROWTH_FOR_NEW) continue;
          const bytes = codec.buildDictionary(samples);
          const id = Number(insert.run(type, samples.length, bytes).lastInsertRowid);
          replaced.push([type, current]);
          byType.set(type, { id, type, samples: samples.length, bytes });
        }
      } catch (error) {
        undo();
        throw error;
      }
      return undo;
    },
    forType: (type) => byType.get(type),
  };
})`;

/**
 * This thread's view of the dictionaries, by id. Immutable once written, so cached forever; a miss
 * reads the table (another process, or this one's writer thread, may have added one since).
 */
export class DictionaryCache {
  private readonly byId = new Map<number, Buffer>();
  private select: BetterSqlite3.Statement<[number], { bytes: Buffer }> | undefined;

  constructor(private readonly db: BetterSqlite3.Database) {}

  bytes(id: number): Buffer {
    let bytes = this.byId.get(id);
    if (!bytes) {
      // Prepared on first use: a file with no compressed rows may predate the table.
      this.select ??= this.db.prepare<[number], { bytes: Buffer }>(
        'SELECT bytes FROM payload_dictionaries WHERE id = ?',
      );
      bytes = this.select.get(id)?.bytes;
      if (!bytes) throw new Error(`Event payload dictionary ${id} is missing`);
      this.byId.set(id, bytes);
    }
    return bytes;
  }
}
