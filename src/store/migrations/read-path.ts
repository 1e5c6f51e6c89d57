import type { Migration } from "../migrations.ts";

/** Migrations of indexes and bounded plans of the read path: keys 0080-… to 0089-…. */
export const READ_PATH_MIGRATIONS: readonly Migration[] = [
  [
    "0080-read-path-indexes",
    `
    -- /tokens?type=: the current tokens of one type in id order (a seek instead of a walk over every token).
    CREATE INDEX token_current_type ON token (type, id) WHERE valid_to IS NULL;
    -- (/tokens/nfts?account.id= across tokens walks an owner's current NFTs on nft_current_by_account, 0050.)
    -- /tokens/balances?account.id=&timestamp= across tokens: an account's closed relationship versions (its
    -- current ones are on token_account_current_by_account; partial, so current lookups never pick this one).
    CREATE INDEX token_account_closed_by_account ON token_account (account_id, token_id, valid_from) WHERE valid_to IS NOT NULL;
    `,
  ],
  [
    "0081-token-name-index",
    `
    -- /tokens?name=: the current name of every token in a trigram index (case-folded), so a name search looks
    -- up the tokens whose name contains each literal run of three or more characters instead of matching every
    -- token's name. Kept by triggers on token: whichever way a current version is written, its name replaces
    -- the token's entry (contentless: the names themselves stay in token).
    CREATE VIRTUAL TABLE token_name USING fts5(
      name, tokenize = 'trigram case_sensitive 0', content = '', contentless_delete = 1
    );
    INSERT INTO token_name (rowid, name) SELECT id, name FROM token WHERE valid_to IS NULL;
    CREATE TRIGGER token_name_insert AFTER INSERT ON token WHEN NEW.valid_to IS NULL BEGIN
      DELETE FROM token_name WHERE rowid = NEW.id;
      INSERT INTO token_name (rowid, name) VALUES (NEW.id, NEW.name);
    END;
    CREATE TRIGGER token_name_update AFTER UPDATE OF name, valid_to ON token WHEN NEW.valid_to IS NULL BEGIN
      DELETE FROM token_name WHERE rowid = NEW.id;
      INSERT INTO token_name (rowid, name) VALUES (NEW.id, NEW.name);
    END;
    `,
  ],
];
