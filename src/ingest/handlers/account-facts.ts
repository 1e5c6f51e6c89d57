import type { HandlerContext } from "./context.ts";
import { applyEthereumNonce } from "./ethereum-nonce.ts";
import { applyPaidStakingRewards } from "./staking.ts";

/**
 * Account changes a record carries whatever its transaction and status: staking reward payouts and Ethereum
 * signer nonces. Runs after the transaction's own handler, as upstream applies them after the entity update.
 */
export function applyAccountFacts(ctx: HandlerContext): void {
  applyEthereumNonce(ctx);
  applyPaidStakingRewards(ctx);
}
