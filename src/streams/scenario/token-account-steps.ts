/**
 * Steps on the relation between an account and a token: TokenAssociate, TokenDissociate, TokenFreeze,
 * TokenUnfreeze, TokenGrantKyc, TokenRevokeKyc.
 *
 *   - tokenAssociate / tokenDissociate: { account: alice, tokens: [GOLD, ART] }
 *   - tokenFreeze / tokenUnfreeze / tokenGrantKyc / tokenRevokeKyc: { token: GOLD, account: alice }
 */
import type { Args } from "./args.ts";
import type { Effects } from "./effects.ts";
import { type Account, Ledger, type Token, type TokenRel, TxFailure } from "./ledger.ts";
import { FEES } from "./network-fees.ts";
import { accountId, tokenId } from "./pb.ts";
import {
  type HandlerContext,
  type Prepared,
  requireLiveAccount,
  requireTokenKey,
  requireUsableToken,
} from "./step.ts";

/**
 * Associates `account` with `token` on the fly when it has a free automatic association slot (HIP-23;
 * -1 means unlimited, HIP-904), reporting it in the record. Returns undefined when it has none.
 */
export function autoAssociate(
  account: Account,
  token: Token,
  ctx: HandlerContext,
  fx: Effects,
): TokenRel | undefined {
  const max = account.maxAutoAssociations;
  if (max === 0 || (max > 0 && account.usedAutoAssociations >= max)) return undefined;
  const rel = Ledger.newRel(token, true);
  ctx.ledger.setRel(account.num, token.num, rel);
  account.usedAutoAssociations++;
  fx.autoAssociations.push({ token: token.num, account: account.num });
  return rel;
}

function associationStep(associate: boolean) {
  return (args: Args, ctx: HandlerContext): Prepared => {
    const account = ctx.ledger.account(args.str("account"));
    const tokens = args.strList("tokens").map((handle) => ctx.ledger.token(handle));
    const typed = { account: accountId(account.num), tokens: tokens.map((t) => tokenId(t.num)) };
    return {
      body: associate ? { tokenAssociate: typed } : { tokenDissociate: typed },
      signers: [account.key],
      feeTinybars: associate ? FEES.tokenAssociate : FEES.tokenDissociate,
      execute(fx) {
        requireLiveAccount(account);
        if (associate) {
          for (const token of tokens) {
            if (token.deleted) throw new TxFailure("TOKEN_WAS_DELETED", token.handle);
            if (ctx.ledger.rel(account.num, token.num) !== undefined) {
              throw new TxFailure(
                "TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT",
                `${account.name} and ${token.handle}`,
              );
            }
          }
          for (const token of tokens) {
            ctx.ledger.setRel(
              account.num,
              token.num,
              Ledger.newRel(token, false, token.treasury === account.num),
            );
          }
          return;
        }
        for (const token of tokens) {
          const rel = ctx.ledger.rel(account.num, token.num);
          if (rel === undefined) {
            throw new TxFailure("TOKEN_NOT_ASSOCIATED_TO_ACCOUNT", `${account.name} and ${token.handle}`);
          }
          if (token.deleted) continue;
          if (token.treasury === account.num) throw new TxFailure("ACCOUNT_IS_TREASURY", token.handle);
          if (rel.frozen) throw new TxFailure("ACCOUNT_FROZEN_FOR_TOKEN", token.handle);
          if (rel.balance !== 0n)
            throw new TxFailure("TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES", token.handle);
        }
        for (const token of tokens) {
          const rel = ctx.ledger.rel(account.num, token.num)!;
          // Units of a deleted fungible token leave with the association; the record shows them as a debit,
          // and mirror nodes take them off the total supply, which this summary does as well.
          if (token.deleted && token.type === "fungible" && rel.balance > 0n) {
            token.totalSupply -= rel.balance;
            fx.tokenDelta(token.num, account.num, -rel.balance);
          }
          if (rel.automatic) account.usedAutoAssociations--;
          ctx.ledger.deleteRel(account.num, token.num);
        }
      },
    };
  };
}

export const tokenAssociate = associationStep(true);
export const tokenDissociate = associationStep(false);

type RelChange = {
  field: "tokenFreeze" | "tokenUnfreeze" | "tokenGrantKyc" | "tokenRevokeKyc";
  role: "freeze" | "kyc";
  apply(rel: TokenRel): void;
};

function relationStep(change: RelChange) {
  return (args: Args, ctx: HandlerContext): Prepared => {
    const token = ctx.ledger.token(args.str("token"));
    const account = ctx.ledger.account(args.str("account"));
    const key = token.keys[change.role];
    return {
      body: { [change.field]: { token: tokenId(token.num), account: accountId(account.num) } },
      signers: key === undefined ? [] : [key],
      feeTinybars: change.role === "freeze" ? FEES.tokenFreeze : FEES.tokenKyc,
      execute() {
        requireUsableToken(token);
        requireTokenKey(
          token,
          change.role,
          change.role === "freeze" ? "TOKEN_HAS_NO_FREEZE_KEY" : "TOKEN_HAS_NO_KYC_KEY",
        );
        requireLiveAccount(account);
        const rel = ctx.ledger.rel(account.num, token.num);
        if (rel === undefined)
          throw new TxFailure("TOKEN_NOT_ASSOCIATED_TO_ACCOUNT", `${account.name} and ${token.handle}`);
        change.apply(rel);
      },
    };
  };
}

export const tokenFreeze = relationStep({
  field: "tokenFreeze",
  role: "freeze",
  apply: (rel) => {
    rel.frozen = true;
  },
});
export const tokenUnfreeze = relationStep({
  field: "tokenUnfreeze",
  role: "freeze",
  apply: (rel) => {
    rel.frozen = false;
  },
});
export const tokenGrantKyc = relationStep({
  field: "tokenGrantKyc",
  role: "kyc",
  apply: (rel) => {
    rel.kycGranted = true;
  },
});
export const tokenRevokeKyc = relationStep({
  field: "tokenRevokeKyc",
  role: "kyc",
  apply: (rel) => {
    rel.kycGranted = false;
  },
});
