import { toBigInt } from "../../streams/long.ts";
import type { proto } from "../../streams/proto.ts";
import { countAllKeys } from "../key-count.ts";
import { baseOnly, type ServiceCalculator } from "./types.ts";

/** The eight keys a token create or update can set. */
function tokenKeys(op: proto.ITokenCreateTransactionBody | proto.ITokenUpdateTransactionBody) {
  return [
    op.adminKey,
    op.feeScheduleKey,
    op.freezeKey,
    op.kycKey,
    op.metadataKey,
    op.pauseKey,
    op.supplyKey,
    op.wipeKey,
  ];
}

export const TOKEN_CALCULATORS: Record<string, ServiceCalculator> = {
  tokenCreation: {
    functionality: "TokenCreate",
    calculate({ body, fees }) {
      const op = body.tokenCreation!;
      fees.setBase(fees.definition.baseFee);
      fees.addExtra("KEYS", countAllKeys(tokenKeys(op)));
      if ((op.customFees?.length ?? 0) > 0) fees.addExtra("TOKEN_CREATE_WITH_CUSTOM_FEE", 1n);
    },
  },
  tokenUpdate: {
    functionality: "TokenUpdate",
    calculate({ body, fees }) {
      fees.setBase(fees.definition.baseFee);
      fees.addExtra("KEYS", countAllKeys(tokenKeys(body.tokenUpdate!)));
    },
  },
  tokenMint: {
    functionality: "TokenMint",
    calculate({ body, fees }) {
      const op = body.tokenMint!;
      fees.setBase(fees.definition.baseFee);
      // Amount 0 means an NFT mint, even with no metadata: it still pays the NFT base (fees.md §9).
      if (toBigInt(op.amount) === 0n) {
        fees.addExtra("TOKEN_MINT_NFT_BASE", 1n);
        fees.addExtra("TOKEN_MINT_NFT", BigInt(op.metadata?.length ?? 0));
      }
    },
  },
  tokenAssociate: {
    functionality: "TokenAssociateToAccount",
    calculate({ body, fees }) {
      fees.setBase(fees.definition.baseFee);
      fees.addExtra("TOKEN_ASSOCIATE", BigInt(body.tokenAssociate!.tokens?.length ?? 0));
    },
  },
  tokenUpdateNfts: {
    functionality: "TokenUpdateNfts",
    calculate({ body, fees }) {
      fees.setBase(fees.definition.baseFee);
      fees.addExtra("NFT_UPDATE", BigInt(body.tokenUpdateNfts!.serialNumbers?.length ?? 0));
    },
  },
  tokenDissociate: baseOnly("TokenDissociateFromAccount"),
  tokenBurn: baseOnly("TokenBurn"),
  tokenDeletion: baseOnly("TokenDelete"),
  tokenFreeze: baseOnly("TokenFreezeAccount"),
  tokenUnfreeze: baseOnly("TokenUnfreezeAccount"),
  tokenGrantKyc: baseOnly("TokenGrantKycToAccount"),
  tokenRevokeKyc: baseOnly("TokenRevokeKycFromAccount"),
  tokenPause: baseOnly("TokenPause"),
  tokenUnpause: baseOnly("TokenUnpause"),
  tokenWipe: baseOnly("TokenAccountWipe"),
  tokenFeeScheduleUpdate: baseOnly("TokenFeeScheduleUpdate"),
  tokenReject: baseOnly("TokenReject"),
  tokenCancelAirdrop: baseOnly("TokenCancelAirdrop"),
  tokenClaimAirdrop: baseOnly("TokenClaimAirdrop"),
};
