/** Rows as better-sqlite3 returns them with safe integers on: every INTEGER is a bigint. */

export type EntityRow = {
  id: bigint;
  valid_from: bigint;
  valid_to: bigint | null;
  type: string;
  created_ns: bigint | null;
  deleted: bigint | null;
  memo: string;
  key: Buffer | null;
  public_key: string | null;
  auto_renew_account_id: bigint | null;
  auto_renew_period: bigint | null;
  expiration_ns: bigint | null;
};

export type TokenRow = {
  id: bigint;
  valid_from: bigint;
  valid_to: bigint | null;
  created_ns: bigint;
  name: string;
  symbol: string;
  decimals: bigint;
  initial_supply: bigint;
  max_supply: bigint;
  supply_type: string;
  type: string;
  treasury_id: bigint;
  freeze_default: bigint;
  freeze_key: Buffer | null;
  kyc_key: Buffer | null;
  wipe_key: Buffer | null;
  supply_key: Buffer | null;
  fee_schedule_key: Buffer | null;
  pause_key: Buffer | null;
  metadata_key: Buffer | null;
  metadata: Buffer | null;
  pause_status: string;
};

export type CustomFeeRow = { token_id: bigint; valid_from: bigint; valid_to: bigint | null; fees: string };
