import { type Common, createCustomCommon, Hardfork, Mainnet } from "@ethereumjs/common";

/** Chain ids of the Hedera networks (HIP-26), as upstream picks them from the configured network. */
export const CHAIN_IDS: Readonly<Record<string, bigint>> = {
  mainnet: 295n,
  testnet: 296n,
  previewnet: 297n,
  other: 298n,
};

/** A local or unnamed network: upstream's default. */
export const DEFAULT_CHAIN_ID = 298n;

const commons = new Map<bigint, Common>();

/**
 * Ethereum's rules as Hedera runs them: the Cancun instruction set and gas schedule (Hedera's EVM v0.50+), with
 * the network's chain id for `CHAINID`.
 */
export function hederaCommon(chainId: bigint): Common {
  let common = commons.get(chainId);
  if (common === undefined) {
    common = createCustomCommon({ chainId: Number(chainId), name: `hedera-${chainId}` }, Mainnet, {
      hardfork: Hardfork.Cancun,
    });
    commons.set(chainId, common);
  }
  return common.copy();
}
