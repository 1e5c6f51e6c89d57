import type { Migration } from "../migrations.ts";

/** Migrations of account fields, aliases, staking (accounts issue): keys 0040-… to 0049-…. */
export const ACCOUNTS_MIGRATIONS: readonly Migration[] = [
  [
    "0040-account-fields",
    `
    -- The account fields of the mirror node's entity table that the core migration left out. NULL on entities
    -- that are not accounts. staked_node_id and stake_period_start use upstream's -1 for "none";
    -- stake_period_start counts days since the epoch.
    ALTER TABLE entity ADD COLUMN max_automatic_token_associations INTEGER;
    ALTER TABLE entity ADD COLUMN receiver_sig_required INTEGER;
    ALTER TABLE entity ADD COLUMN decline_reward INTEGER;
    ALTER TABLE entity ADD COLUMN staked_account_id INTEGER;
    ALTER TABLE entity ADD COLUMN staked_node_id INTEGER;
    ALTER TABLE entity ADD COLUMN stake_period_start INTEGER;
    ALTER TABLE entity ADD COLUMN ethereum_nonce INTEGER;

    -- {idOrAliasOrEvmAddress} lookups: one seek each among current versions.
    CREATE INDEX entity_current_evm_address ON entity (evm_address) WHERE valid_to IS NULL AND evm_address IS NOT NULL;
    CREATE INDEX entity_current_alias ON entity (alias) WHERE valid_to IS NULL AND alias IS NOT NULL;
    `,
  ],
  [
    "0041-account-lists",
    `
    -- /accounts walks current accounts and contracts in id order; /balances also the starting state's accounts
    -- of unknown type. Partial indexes keep tokens, topics and files out of both walks.
    CREATE INDEX entity_current_account ON entity (id) WHERE valid_to IS NULL AND type IN ('ACCOUNT', 'CONTRACT');
    CREATE INDEX entity_current_balance_holder ON entity (id)
      WHERE valid_to IS NULL AND type IN ('ACCOUNT', 'CONTRACT', 'UNKNOWN');
    -- (An account's closed token relationship versions are on token_account_closed_by_account, migration 0080.)
    `,
  ],
];
