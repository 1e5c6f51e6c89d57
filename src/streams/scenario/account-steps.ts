/**
 * Account steps: CryptoCreate, CryptoUpdate, CryptoDelete, and NFT allowances (CryptoApproveAllowance,
 * CryptoDeleteAllowance).
 *
 *   - cryptoCreate: { name: alice, key?: <key>, balance?: "100 hbar", memo?, maxAutoAssociations?, evmAlias? }
 *   - cryptoUpdate: { account: alice, key?: <key>, memo? }
 *   - cryptoDelete: { account: carol, transferTo: alice }
 *   - approveAllowance: { owner?: alice, nfts: [{ token: ART, spender: bob, serials: [1, 2] | all: true }] }
 *   - deleteAllowance: { owner?: alice, nfts: [{ token: ART, serials: [1] }] }
 */
import type { proto } from "../proto.ts";
import { Args } from "./args.ts";
import { type Account, ScenarioError, TxFailure } from "./ledger.ts";
import { FEES } from "./network-fees.ts";
import { accountId, duration, long, tokenId } from "./pb.ts";
import { type HandlerContext, type Prepared, requireLiveAccount } from "./step.ts";

/** Three months, what SDKs set as a new account's auto-renew period. */
const ACCOUNT_AUTO_RENEW_SECONDS = 7_776_000n;

export function cryptoCreate(args: Args, ctx: HandlerContext): Prepared {
  const name = args.str("name");
  const keySpec = args.has("key") ? args.key("key") : name;
  const key = ctx.keys.resolve(keySpec);
  const initialBalance = args.has("balance") ? args.tinybars("balance") : 0n;
  const memo = args.optStr("memo") ?? "";
  const maxAutoAssociations = args.has("maxAutoAssociations") ? args.int("maxAutoAssociations") : 0;
  let evmAddress: Uint8Array | null = null;
  if (args.bool("evmAlias", false)) {
    if (typeof keySpec !== "object" || !("ecdsa" in keySpec)) {
      throw new ScenarioError(`${args.where}: evmAlias needs an { ecdsa: ... } key`);
    }
    evmAddress = ctx.keys.ecdsaKey(keySpec.ecdsa).evmAddress;
  }
  const body: proto.ICryptoCreateTransactionBody = {
    key: key.proto,
    autoRenewPeriod: duration(ACCOUNT_AUTO_RENEW_SECONDS),
  };
  if (initialBalance !== 0n) body.initialBalance = long(initialBalance);
  if (memo !== "") body.memo = memo;
  if (maxAutoAssociations !== 0) body.maxAutomaticTokenAssociations = maxAutoAssociations;
  if (evmAddress !== null) body.alias = evmAddress;
  return {
    body: { cryptoCreateAccount: body },
    signers: [],
    feeTinybars: FEES.cryptoCreate,
    execute(fx) {
      if (ctx.payer.balance < initialBalance)
        throw new TxFailure("INSUFFICIENT_PAYER_BALANCE", "initial balance");
      const account: Account = {
        name,
        num: ctx.ledger.allocateEntityNum(),
        key,
        balance: 0n,
        deleted: false,
        memo,
        maxAutoAssociations,
        usedAutoAssociations: 0,
        alias: evmAddress,
        evmAddress,
      };
      ctx.ledger.addAccount(account);
      if (initialBalance !== 0n) {
        fx.hbarDelta(ctx.payer.num, -initialBalance);
        fx.hbarDelta(account.num, initialBalance);
      }
      fx.receipt.accountId = account.num;
    },
  };
}

export function cryptoUpdate(args: Args, ctx: HandlerContext): Prepared {
  const account = ctx.ledger.account(args.str("account"));
  const newKey = args.has("key") ? ctx.keys.resolve(args.key("key")) : undefined;
  const memo = args.optStr("memo");
  const body: proto.ICryptoUpdateTransactionBody = { accountIDToUpdate: accountId(account.num) };
  if (newKey !== undefined) body.key = newKey.proto;
  if (memo !== undefined) body.memo = { value: memo };
  return {
    body: { cryptoUpdateAccount: body },
    signers: newKey === undefined ? [account.key] : [account.key, newKey],
    feeTinybars: FEES.cryptoUpdate,
    execute() {
      requireLiveAccount(account);
      if (newKey !== undefined) account.key = newKey;
      if (memo !== undefined) account.memo = memo;
    },
  };
}

export function cryptoDelete(args: Args, ctx: HandlerContext): Prepared {
  const account = ctx.ledger.account(args.str("account"));
  const beneficiary = ctx.ledger.account(args.str("transferTo"));
  return {
    body: {
      cryptoDelete: {
        deleteAccountID: accountId(account.num),
        transferAccountID: accountId(beneficiary.num),
      },
    },
    signers: [account.key],
    feeTinybars: FEES.cryptoDelete,
    execute(fx) {
      requireLiveAccount(account);
      requireLiveAccount(beneficiary);
      if (account === beneficiary)
        throw new TxFailure("TRANSFER_ACCOUNT_SAME_AS_DELETE_ACCOUNT", account.name);
      for (const token of ctx.ledger.tokens.values()) {
        if (token.treasury === account.num && !token.deleted)
          throw new TxFailure("ACCOUNT_IS_TREASURY", token.handle);
      }
      for (const [holder, , rel] of ctx.ledger.allRels()) {
        if (holder === account.num && rel.balance !== 0n) {
          throw new TxFailure("TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES", account.name);
        }
      }
      const balance = account.balance;
      if (balance !== 0n) {
        fx.hbarDelta(account.num, -balance);
        fx.hbarDelta(beneficiary.num, balance);
      }
      account.deleted = true;
    },
  };
}

type NftAllowanceInput = { token: string; spender: string | null; serials: bigint[]; all: boolean | null };

function parseNftAllowances(args: Args, withSpender: boolean): NftAllowanceInput[] {
  return args.list("nfts").map((item, i) => {
    const a = new Args(`${args.where}.nfts[${i}]`, item);
    const input: NftAllowanceInput = {
      token: a.str("token"),
      spender: withSpender ? a.str("spender") : null,
      serials: a.has("serials") ? a.bigintList("serials") : [],
      all: withSpender && a.has("all") ? a.bool("all", false) : null,
    };
    a.done();
    return input;
  });
}

export function approveAllowance(args: Args, ctx: HandlerContext): Prepared {
  const owner = args.has("owner") ? ctx.ledger.account(args.str("owner")) : ctx.payer;
  const inputs = parseNftAllowances(args, true);
  const resolved = inputs.map((input) => ({
    input,
    token: ctx.ledger.token(input.token),
    spender: ctx.ledger.account(input.spender!),
  }));
  const nftAllowances = resolved.map(({ input, token, spender }): proto.INftAllowance => {
    const allowance: proto.INftAllowance = {
      tokenId: tokenId(token.num),
      owner: accountId(owner.num),
      spender: accountId(spender.num),
    };
    if (input.serials.length > 0) allowance.serialNumbers = input.serials.map(long);
    if (input.all !== null) allowance.approvedForAll = { value: input.all };
    return allowance;
  });
  return {
    body: { cryptoApproveAllowance: { nftAllowances } },
    signers: [owner.key],
    feeTinybars: FEES.cryptoApproveAllowance,
    execute() {
      requireLiveAccount(owner);
      for (const { input, token, spender } of resolved) {
        requireLiveAccount(spender);
        if (token.type !== "nft") throw new TxFailure("FUNGIBLE_TOKEN_IN_NFT_ALLOWANCES", token.handle);
        if (spender === owner) throw new TxFailure("SPENDER_ACCOUNT_SAME_AS_OWNER", owner.name);
        if (ctx.ledger.rel(owner.num, token.num) === undefined) {
          throw new TxFailure("TOKEN_NOT_ASSOCIATED_TO_ACCOUNT", `${owner.name} and ${token.handle}`);
        }
        requireOwnedSerials(token.nfts, input.serials, owner, token.handle);
      }
      for (const { input, token, spender } of resolved) {
        for (const serial of input.serials) token.nfts.get(serial)!.spender = spender.num;
        const key = `${owner.num}/${token.num}/${spender.num}`;
        if (input.all === true) ctx.ledger.approvedForAll.add(key);
        if (input.all === false) ctx.ledger.approvedForAll.delete(key);
      }
    },
  };
}

export function deleteAllowance(args: Args, ctx: HandlerContext): Prepared {
  const owner = args.has("owner") ? ctx.ledger.account(args.str("owner")) : ctx.payer;
  const resolved = parseNftAllowances(args, false).map((input) => ({
    input,
    token: ctx.ledger.token(input.token),
  }));
  const nftAllowances = resolved.map(
    ({ input, token }): proto.INftRemoveAllowance => ({
      tokenId: tokenId(token.num),
      owner: accountId(owner.num),
      serialNumbers: input.serials.map(long),
    }),
  );
  return {
    body: { cryptoDeleteAllowance: { nftAllowances } },
    signers: [owner.key],
    feeTinybars: FEES.cryptoDeleteAllowance,
    execute() {
      requireLiveAccount(owner);
      for (const { input, token } of resolved)
        requireOwnedSerials(token.nfts, input.serials, owner, token.handle);
      for (const { input, token } of resolved) {
        for (const serial of input.serials) token.nfts.get(serial)!.spender = 0n;
      }
    },
  };
}

function requireOwnedSerials(
  nfts: Map<bigint, { owner: bigint }>,
  serials: bigint[],
  owner: Account,
  handle: string,
): void {
  for (const serial of serials) {
    const nft = nfts.get(serial);
    if (nft === undefined) throw new TxFailure("INVALID_TOKEN_NFT_SERIAL_NUMBER", `${handle} #${serial}`);
    if (nft.owner !== owner.num) {
      throw new TxFailure("SENDER_DOES_NOT_OWN_NFT_SERIAL_NO", `${owner.name} and ${handle} #${serial}`);
    }
  }
}
