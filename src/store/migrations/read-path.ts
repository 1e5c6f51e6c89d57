import type { Migration } from "../migrations.ts";

/** Migrations of indexes and bounded plans of the read path: keys 0080-… to 0089-…. */
export const READ_PATH_MIGRATIONS: readonly Migration[] = [
  [
    "0080-read-path-indexes",
    `
    -- /tokens?type=: the current tokens of one type in id order (a seek instead of a walk over every token).
    CREATE INDEX token_current_type ON token (type, id) WHERE valid_to IS NULL;
    -- /tokens/nfts?account.id= across tokens: an owner's current NFTs in (token, serial) order.
    CREATE INDEX nft_current_by_account ON nft (account_id, token_id, serial) WHERE valid_to IS NULL;
    -- /tokens/balances?account.id=&timestamp= across tokens: every version of an account's relationships.
    CREATE INDEX token_account_by_account ON token_account (account_id, token_id, valid_from);
    `,
  ],
];
