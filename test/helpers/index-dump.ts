import Database from "better-sqlite3";

/** Every row of every table, in a stable order: two indexes are equal when their dumps are. */
export function dumpIndex(dbFile: string): Record<string, unknown[]> {
  const db = new Database(dbFile, { readonly: true });
  db.defaultSafeIntegers(true);
  try {
    const schema = db
      .prepare(
        "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name <> 'schema_migration' ORDER BY name",
      )
      .all() as { name: string; sql: string }[];
    // A full-text table is compared by the documents it holds: its shadow tables' bytes depend on how the
    // writes were grouped into commits (segments, merges), which a crash and resume changes.
    const virtual = schema.filter((t) => t.sql.startsWith("CREATE VIRTUAL TABLE")).map((t) => t.name);
    const tables = schema.map((t) => t.name).filter((name) => !virtual.some((v) => name.startsWith(`${v}_`)));
    const result: Record<string, unknown[]> = {};
    for (const table of tables) {
      if (virtual.includes(table)) {
        result[table] = db.prepare(`SELECT rowid FROM "${table}" ORDER BY rowid`).raw().all();
        continue;
      }
      const columns = (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[])
        .map((column) => `"${column}"`)
        .join(", ");
      result[table] = db.prepare(`SELECT * FROM "${table}" ORDER BY ${columns}`).raw().all();
    }
    return result;
  } finally {
    db.close();
  }
}
