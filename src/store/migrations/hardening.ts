import type { Migration } from "../migrations.ts";

/** Migrations of robustness fixes: keys 0070-… to 0079-…. */
export const HARDENING_MIGRATIONS: readonly Migration[] = [
  [
    "0070-balance-checks",
    `
    -- Later balance snapshots compared with the index (one row each, by the instant the file holds), so that a
    -- restart neither reads them again nor forgets how they compared. examples: a JSON array of strings.
    CREATE TABLE balance_check (
      consensus_ns INTEGER PRIMARY KEY,
      file_name    TEXT    NOT NULL,
      accounts     INTEGER NOT NULL,
      differences  INTEGER NOT NULL,
      examples     TEXT    NOT NULL
    );
    -- Running totals of balance_check, kept so that nothing has to count it.
    CREATE TABLE balance_check_totals (
      id          INTEGER PRIMARY KEY CHECK (id = 1),
      checked     INTEGER NOT NULL,
      disagreeing INTEGER NOT NULL
    );
    `,
  ],
];
