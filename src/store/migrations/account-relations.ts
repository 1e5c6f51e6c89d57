import type { Migration } from "../migrations.ts";

/** Migrations of allowances, airdrops, staking reward payouts (accounts issue): keys 0050-… to 0059-…. */
export const ACCOUNT_RELATIONS_MIGRATIONS: readonly Migration[] = [
  [
    "0050-allowances-airdrops-rewards",
    `
    -- Hbar allowances (CryptoApproveAllowance), versioned like upstream's crypto_allowance(_history). A grant or
    -- revoke opens a version; an approved spend lowers amount in place on the current version, as upstream's
    -- non-history merge does, so amount is what remains and amount_granted what the grant said.
    CREATE TABLE crypto_allowance (
      owner          INTEGER NOT NULL,
      spender        INTEGER NOT NULL,
      valid_from     INTEGER NOT NULL,
      valid_to       INTEGER,
      amount         INTEGER NOT NULL,
      amount_granted INTEGER NOT NULL,
      payer_id       INTEGER NOT NULL,
      PRIMARY KEY (owner, spender, valid_from)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX crypto_allowance_current ON crypto_allowance (owner, spender) WHERE valid_to IS NULL;
    -- /accounts/{id}/allowances/crypto lists the owner's current allowances with something left, by spender.
    CREATE INDEX crypto_allowance_live ON crypto_allowance (owner, spender)
      WHERE valid_to IS NULL AND amount > 0;

    -- Fungible token allowances, the same way.
    CREATE TABLE token_allowance (
      owner          INTEGER NOT NULL,
      spender        INTEGER NOT NULL,
      token_id       INTEGER NOT NULL,
      valid_from     INTEGER NOT NULL,
      valid_to       INTEGER,
      amount         INTEGER NOT NULL,
      amount_granted INTEGER NOT NULL,
      payer_id       INTEGER NOT NULL,
      PRIMARY KEY (owner, spender, token_id, valid_from)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX token_allowance_current ON token_allowance (owner, spender, token_id)
      WHERE valid_to IS NULL;
    CREATE INDEX token_allowance_live ON token_allowance (owner, spender, token_id)
      WHERE valid_to IS NULL AND amount > 0;

    -- NFT "approved for all" allowances (serial allowances live on the nft rows). approved_for_all false is a
    -- revocation: kept as a version, never listed.
    CREATE TABLE nft_allowance (
      owner            INTEGER NOT NULL,
      spender          INTEGER NOT NULL,
      token_id         INTEGER NOT NULL,
      valid_from       INTEGER NOT NULL,
      valid_to         INTEGER,
      approved_for_all INTEGER NOT NULL,
      payer_id         INTEGER NOT NULL,
      PRIMARY KEY (owner, spender, token_id, valid_from)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX nft_allowance_current ON nft_allowance (owner, spender, token_id) WHERE valid_to IS NULL;
    CREATE INDEX nft_allowance_by_owner ON nft_allowance (owner, spender, token_id)
      WHERE valid_to IS NULL AND approved_for_all = 1;
    CREATE INDEX nft_allowance_by_spender ON nft_allowance (spender, owner, token_id)
      WHERE valid_to IS NULL AND approved_for_all = 1;

    -- Token airdrops (HIP-904): a pending airdrop from the record's new_pending_airdrops, then CLAIMED or
    -- CANCELLED. serial is 0 for a fungible airdrop (whose amount is the pending total), amount NULL for an NFT.
    CREATE TABLE token_airdrop (
      sender     INTEGER NOT NULL,
      receiver   INTEGER NOT NULL,
      token_id   INTEGER NOT NULL,
      serial     INTEGER NOT NULL,
      valid_from INTEGER NOT NULL,
      valid_to   INTEGER,
      state      TEXT    NOT NULL,
      amount     INTEGER,
      PRIMARY KEY (sender, receiver, token_id, serial, valid_from)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX token_airdrop_current ON token_airdrop (sender, receiver, token_id, serial)
      WHERE valid_to IS NULL;
    -- /airdrops/outstanding (by sender) and /airdrops/pending (by receiver): pending ones only.
    CREATE INDEX token_airdrop_outstanding ON token_airdrop (sender, receiver, token_id, serial)
      WHERE valid_to IS NULL AND state = 'PENDING';
    CREATE INDEX token_airdrop_pending ON token_airdrop (receiver, sender, token_id, serial)
      WHERE valid_to IS NULL AND state = 'PENDING';

    -- Every entry of a record's paid_staking_rewards, by account and time (/accounts/{id}/rewards).
    CREATE TABLE staking_reward_transfer (
      account_id   INTEGER NOT NULL,
      consensus_ns INTEGER NOT NULL,
      amount       INTEGER NOT NULL,
      payer_id     INTEGER NOT NULL,
      PRIMARY KEY (account_id, consensus_ns)
    ) WITHOUT ROWID;

    -- /accounts/{id}/nfts: an owner's current NFTs by token and serial.
    CREATE INDEX nft_current_by_account ON nft (account_id, token_id, serial) WHERE valid_to IS NULL;
    `,
  ],
];
