/**
 * Supply steps: TokenMint, TokenBurn, TokenWipe (fungible and NFT) and TokenUpdateNfts.
 *
 *   - tokenMint: { token: GOLD, amount: 1000 } or { token: ART, metadata: ["ipfs://a", "hex:0a0b"] }
 *   - tokenBurn: { token: GOLD, amount: 10 } or { token: ART, serials: [3] }
 *   - tokenWipe: { token: GOLD, account: bob, amount: 5 } or { token: ART, account: bob, serials: [2] }
 *   - tokenUpdateNfts: { token: ART, serials: [1, 2], metadata: "ipfs://new" }
 *
 * Receipts carry the new total supply, and a mint's serial numbers. In the record a fungible mint credits the
 * treasury, a burn debits it and a wipe debits the account; an NFT mint moves each serial from no one (0.0.0)
 * to the treasury, a burn from the treasury to no one, a wipe from the account to no one.
 */
import type { proto } from "../proto.ts";
import { type Args, parseBytes } from "./args.ts";
import { ScenarioError, type Token, TxFailure } from "./ledger.ts";
import { FEES, TOKEN_CREATE_MAX_FEE } from "./network-fees.ts";
import { accountId, long, tokenId } from "./pb.ts";
import {
  type HandlerContext,
  type Prepared,
  requireLiveAccount,
  requireTokenKey,
  requireUsableToken,
} from "./step.ts";

/** `amount` for a fungible token, `serials` (or `metadata` for a mint) for an NFT, as the token's type asks. */
function readQuantity(
  args: Args,
  token: Token,
  nftField: "serials" | "metadata",
): { amount: bigint; list: unknown[] } {
  if (token.type === "fungible") return { amount: args.bigint("amount"), list: [] };
  if (args.has("amount"))
    throw new ScenarioError(`${args.where}: ${token.handle} is an NFT; give ${nftField}`);
  return { amount: 0n, list: args.list(nftField) };
}

export function tokenMint(args: Args, ctx: HandlerContext): Prepared {
  const token = ctx.ledger.token(args.str("token"));
  const { amount, list } = readQuantity(args, token, "metadata");
  const metadata = list.map((m, i) => parseBytes(`${args.where}.metadata[${i}]`, m));
  const body: proto.ITokenMintTransactionBody = { token: tokenId(token.num) };
  if (amount !== 0n) body.amount = long(amount);
  if (metadata.length > 0) body.metadata = metadata;
  return {
    body: { tokenMint: body },
    signers: token.keys.supply === undefined ? [] : [token.keys.supply],
    feeTinybars:
      token.type === "nft" ? FEES.tokenMintNftPerSerial * BigInt(metadata.length) : FEES.tokenMintFungible,
    maxFeeTinybars: token.type === "nft" ? TOKEN_CREATE_MAX_FEE : undefined,
    execute(fx) {
      requireUsableToken(token);
      requireTokenKey(token, "supply", "TOKEN_HAS_NO_SUPPLY_KEY");
      const count = token.type === "nft" ? BigInt(metadata.length) : amount;
      if (count <= 0n) {
        throw new TxFailure(
          token.type === "nft" ? "INVALID_TOKEN_MINT_METADATA" : "INVALID_TOKEN_MINT_AMOUNT",
          token.handle,
        );
      }
      if (token.finite && token.totalSupply + count > token.maxSupply) {
        throw new TxFailure("TOKEN_MAX_SUPPLY_REACHED", token.handle);
      }
      requireTreasuryUsable(token, ctx);
      token.totalSupply += count;
      fx.receipt.newTotalSupply = token.totalSupply;
      if (token.type === "fungible") {
        fx.tokenDelta(token.num, token.treasury, amount);
        return;
      }
      const serials: bigint[] = [];
      for (const bytes of metadata) {
        const serial = token.nextSerial++;
        token.nfts.set(serial, { owner: token.treasury, metadata: bytes, spender: 0n });
        fx.nftMove(token.num, { serial, sender: 0n, receiver: token.treasury });
        serials.push(serial);
      }
      fx.receipt.serialNumbers = serials;
    },
  };
}

function requireTreasuryUsable(token: Token, ctx: HandlerContext): void {
  const rel = ctx.ledger.rel(token.treasury, token.num);
  if (rel === undefined)
    throw new TxFailure("TOKEN_NOT_ASSOCIATED_TO_ACCOUNT", `treasury of ${token.handle}`);
  if (rel.frozen) throw new TxFailure("ACCOUNT_FROZEN_FOR_TOKEN", `treasury of ${token.handle}`);
  if (!rel.kycGranted)
    throw new TxFailure("ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN", `treasury of ${token.handle}`);
}

export function tokenBurn(args: Args, ctx: HandlerContext): Prepared {
  const token = ctx.ledger.token(args.str("token"));
  const { amount, list } = readQuantity(args, token, "serials");
  const serials = list.length > 0 ? args.bigintList("serials") : [];
  const body: proto.ITokenBurnTransactionBody = { token: tokenId(token.num) };
  if (amount !== 0n) body.amount = long(amount);
  if (serials.length > 0) body.serialNumbers = serials.map(long);
  return {
    body: { tokenBurn: body },
    signers: token.keys.supply === undefined ? [] : [token.keys.supply],
    feeTinybars: FEES.tokenBurn,
    execute(fx) {
      requireUsableToken(token);
      requireTokenKey(token, "supply", "TOKEN_HAS_NO_SUPPLY_KEY");
      requireTreasuryUsable(token, ctx);
      if (token.type === "fungible") {
        if (amount <= 0n) throw new TxFailure("INVALID_TOKEN_BURN_AMOUNT", token.handle);
        if (ctx.ledger.rel(token.treasury, token.num)!.balance < amount) {
          throw new TxFailure("INSUFFICIENT_TOKEN_BALANCE", `treasury of ${token.handle}`);
        }
        fx.tokenDelta(token.num, token.treasury, -amount);
        token.totalSupply -= amount;
      } else {
        if (serials.length === 0) throw new TxFailure("INVALID_TOKEN_BURN_METADATA", token.handle);
        for (const serial of serials) {
          const nft = token.nfts.get(serial);
          if (nft === undefined) throw new TxFailure("INVALID_NFT_ID", `${token.handle} #${serial}`);
          if (nft.owner !== token.treasury)
            throw new TxFailure("TREASURY_MUST_OWN_BURNED_NFT", `${token.handle} #${serial}`);
        }
        for (const serial of serials) {
          token.nfts.delete(serial);
          fx.nftMove(token.num, { serial, sender: token.treasury, receiver: 0n });
        }
        token.totalSupply -= BigInt(serials.length);
      }
      fx.receipt.newTotalSupply = token.totalSupply;
    },
  };
}

export function tokenWipe(args: Args, ctx: HandlerContext): Prepared {
  const token = ctx.ledger.token(args.str("token"));
  const account = ctx.ledger.account(args.str("account"));
  const { amount, list } = readQuantity(args, token, "serials");
  const serials = list.length > 0 ? args.bigintList("serials") : [];
  const body: proto.ITokenWipeAccountTransactionBody = {
    token: tokenId(token.num),
    account: accountId(account.num),
  };
  if (amount !== 0n) body.amount = long(amount);
  if (serials.length > 0) body.serialNumbers = serials.map(long);
  return {
    body: { tokenWipe: body },
    signers: token.keys.wipe === undefined ? [] : [token.keys.wipe],
    feeTinybars: FEES.tokenWipe,
    execute(fx) {
      requireUsableToken(token);
      requireTokenKey(token, "wipe", "TOKEN_HAS_NO_WIPE_KEY");
      requireLiveAccount(account);
      if (account.num === token.treasury)
        throw new TxFailure("CANNOT_WIPE_TOKEN_TREASURY_ACCOUNT", token.handle);
      const rel = ctx.ledger.rel(account.num, token.num);
      if (rel === undefined)
        throw new TxFailure("TOKEN_NOT_ASSOCIATED_TO_ACCOUNT", `${account.name} and ${token.handle}`);
      if (token.type === "fungible") {
        if (amount <= 0n || rel.balance < amount) throw new TxFailure("INVALID_WIPING_AMOUNT", token.handle);
        fx.tokenDelta(token.num, account.num, -amount);
        token.totalSupply -= amount;
      } else {
        if (serials.length === 0) throw new TxFailure("INVALID_WIPING_AMOUNT", token.handle);
        for (const serial of serials) {
          const nft = token.nfts.get(serial);
          if (nft === undefined) throw new TxFailure("INVALID_NFT_ID", `${token.handle} #${serial}`);
          if (nft.owner !== account.num)
            throw new TxFailure("ACCOUNT_DOES_NOT_OWN_WIPED_NFT", `${token.handle} #${serial}`);
        }
        for (const serial of serials) {
          token.nfts.delete(serial);
          fx.nftMove(token.num, { serial, sender: account.num, receiver: 0n });
        }
        token.totalSupply -= BigInt(serials.length);
      }
      fx.receipt.newTotalSupply = token.totalSupply;
    },
  };
}

export function tokenUpdateNfts(args: Args, ctx: HandlerContext): Prepared {
  const token = ctx.ledger.token(args.str("token"));
  const serials = args.bigintList("serials");
  const metadata = args.bytes("metadata");
  return {
    body: {
      tokenUpdateNfts: {
        token: tokenId(token.num),
        serialNumbers: serials.map(long),
        metadata: { value: metadata },
      },
    },
    signers: token.keys.metadata === undefined ? [] : [token.keys.metadata],
    feeTinybars: FEES.tokenUpdateNftsPerSerial * BigInt(serials.length),
    execute() {
      requireUsableToken(token);
      requireTokenKey(token, "metadata", "TOKEN_HAS_NO_METADATA_KEY");
      for (const serial of serials) {
        if (!token.nfts.has(serial)) throw new TxFailure("INVALID_NFT_ID", `${token.handle} #${serial}`);
      }
      for (const serial of serials) token.nfts.get(serial)!.metadata = metadata;
    },
  };
}
