/**
 * What the simulated network charges. The amounts are plausible tinybar fees (about what mainnet charges at
 * an exchange rate of 12 cents per hbar), not a fee schedule: ingestion only needs the payer's debit to
 * match the credits. A record splits the fee as nodes do: the node account gets the node fee, the funding
 * account 0.0.98 the network and service fees.
 */

export const NODE_ACCOUNT = 3n;
export const FUNDING_ACCOUNT = 98n;

const TINYBARS_PER_HBAR = 100_000_000n;

/** The fee a transaction of this kind is charged, in tinybars. */
export const FEES = {
  cryptoCreate: 4_170_000n,
  cryptoUpdate: 1_670_000n,
  cryptoDelete: 417_000n,
  cryptoTransfer: 83_000n,
  cryptoTransferTokens: 833_000n,
  cryptoTransferCustomFees: 1_670_000n,
  cryptoApproveAllowance: 4_170_000n,
  cryptoDeleteAllowance: 4_170_000n,
  autoCreation: 3_900_000n,
  tokenCreate: 833_330_000n,
  tokenCreateCustomFees: 1_666_660_000n,
  tokenUpdate: 8_330_000n,
  tokenFeeScheduleUpdate: 8_330_000n,
  tokenMintFungible: 8_330_000n,
  tokenMintNftPerSerial: 16_670_000n,
  tokenBurn: 8_330_000n,
  tokenWipe: 8_330_000n,
  tokenDelete: 8_330_000n,
  tokenPause: 8_330_000n,
  tokenFreeze: 8_330_000n,
  tokenKyc: 8_330_000n,
  tokenAssociate: 41_670_000n,
  tokenDissociate: 41_670_000n,
  tokenUpdateNftsPerSerial: 833_000n,
} as const;

/** The `transactionFee` (maximum fee) a client sets by default. */
export const DEFAULT_MAX_FEE = 2n * TINYBARS_PER_HBAR;
/** SDKs default TokenCreate and NFT mints to a higher maximum. */
export const TOKEN_CREATE_MAX_FEE = 40n * TINYBARS_PER_HBAR;

/** The node's share of a fee (roughly what the fee schedule's node component amounts to). */
export function nodeShare(feeTinybars: bigint): bigint {
  return feeTinybars / 15n;
}
