/**
 * Token lifecycle steps: TokenCreate, TokenUpdate, TokenFeeScheduleUpdate, TokenDelete, TokenPause and
 * TokenUnpause.
 *
 *   - tokenCreate: { token: GOLD, name, symbol, type?: fungible|nft, decimals?, initialSupply?, treasury,
 *       supplyType?: infinite|finite, maxSupply?, freezeDefault?, keys?: { admin, kyc, freeze, wipe, supply,
 *       feeSchedule, pause, metadata }, memo?, autoRenewAccount?: <account>|none, autoRenewPeriod?: 90d,
 *       expiry?: <instant>, metadata?, customFees?: [...] }
 *   - tokenUpdate: { token, name?, symbol?, memo?, treasury?, keys?: {...}, expiry?, autoRenewAccount?,
 *       autoRenewPeriod?, metadata? }   (a key set to `{ keyList: [] }` removes it, HIP-540)
 *   - tokenFeeScheduleUpdate: { token, customFees: [...] }
 *   - tokenDelete / tokenPause / tokenUnpause: { token }
 */
import type { proto } from "../proto.ts";
import type { Args } from "./args.ts";
import {
  collectorsNeedingAssociation,
  customFeesToProto,
  customFeesToState,
  parseCustomFees,
  validateCustomFees,
} from "./custom-fees.ts";
import type { Effects } from "./effects.ts";
import type { ResolvedKey } from "./keys.ts";
import { Ledger, TOKEN_KEY_ROLES, type Token, type TokenKeyRole, TxFailure } from "./ledger.ts";
import { FEES, TOKEN_CREATE_MAX_FEE } from "./network-fees.ts";
import { accountId, duration, long, parseInstant, timestamp, tokenId } from "./pb.ts";
import {
  type HandlerContext,
  type Prepared,
  requireLiveAccount,
  requireTokenKey,
  requireUsableToken,
} from "./step.ts";
import { autoAssociate } from "./token-account-steps.ts";

/** What SDKs set as a token's auto-renew period unless told otherwise (about 91 days). */
export const TOKEN_AUTO_RENEW_SECONDS = 7_890_000n;
const NANOS_PER_SECOND = 1_000_000_000n;

const KEY_FIELDS: Record<
  TokenKeyRole,
  keyof proto.ITokenCreateTransactionBody & keyof proto.ITokenUpdateTransactionBody
> = {
  admin: "adminKey",
  kyc: "kycKey",
  freeze: "freezeKey",
  wipe: "wipeKey",
  supply: "supplyKey",
  feeSchedule: "feeScheduleKey",
  pause: "pauseKey",
  metadata: "metadataKey",
};

function readKeys(args: Args, ctx: HandlerContext): Partial<Record<TokenKeyRole, ResolvedKey>> {
  const out: Partial<Record<TokenKeyRole, ResolvedKey>> = {};
  if (!args.has("keys")) return out;
  const keys = args.sub("keys");
  for (const role of TOKEN_KEY_ROLES) if (keys.has(role)) out[role] = ctx.keys.resolve(keys.key(role));
  keys.done();
  return out;
}

function keysToBody(keys: Partial<Record<TokenKeyRole, ResolvedKey>>, body: Record<string, unknown>): void {
  for (const role of TOKEN_KEY_ROLES) {
    const key = keys[role];
    if (key !== undefined) body[KEY_FIELDS[role]] = key.proto;
  }
}

/** An empty key list: HIP-540's way of removing a key. */
function isRemoval(key: ResolvedKey): boolean {
  return key.proto.keyList != null && (key.proto.keyList.keys ?? []).length === 0;
}

export function tokenCreate(args: Args, ctx: HandlerContext): Prepared {
  const handle = args.str("token");
  const name = args.str("name");
  const symbol = args.str("symbol");
  const typeName = args.optStr("type") ?? "fungible";
  if (typeName !== "fungible" && typeName !== "nft") args.fail("type", "fungible or nft");
  const type = typeName;
  const decimals = args.has("decimals") ? args.int("decimals") : 0;
  const initialSupply = args.optBigint("initialSupply") ?? 0n;
  const treasury = ctx.ledger.account(args.str("treasury"));
  const supplyType = args.optStr("supplyType") ?? "infinite";
  if (supplyType !== "infinite" && supplyType !== "finite") args.fail("supplyType", "infinite or finite");
  const maxSupply = args.optBigint("maxSupply") ?? 0n;
  const freezeDefault = args.bool("freezeDefault", false);
  const keys = readKeys(args, ctx);
  const memo = args.optStr("memo") ?? "";
  const autoRenewName = args.optStr("autoRenewAccount");
  const autoRenewAccount =
    autoRenewName === "none"
      ? null
      : autoRenewName === undefined
        ? ctx.payer
        : ctx.ledger.account(autoRenewName);
  const autoRenewPeriodSeconds = args.has("autoRenewPeriod")
    ? args.durationNs("autoRenewPeriod") / NANOS_PER_SECOND
    : TOKEN_AUTO_RENEW_SECONDS;
  const expiryNs = args.has("expiry") ? parseInstant(args.str("expiry")) : null;
  const metadata = args.has("metadata") ? args.bytes("metadata") : new Uint8Array();
  const feeSpecs = args.has("customFees")
    ? parseCustomFees(`${args.where}.customFees`, args.list("customFees"))
    : [];

  const body: proto.ITokenCreateTransactionBody = { name, symbol, treasury: accountId(treasury.num) };
  if (decimals !== 0) body.decimals = decimals;
  if (initialSupply !== 0n) body.initialSupply = long(initialSupply);
  keysToBody(keys, body as Record<string, unknown>);
  if (freezeDefault) body.freezeDefault = true;
  if (expiryNs !== null) body.expiry = timestamp(expiryNs);
  if (autoRenewAccount !== null) body.autoRenewAccount = accountId(autoRenewAccount.num);
  body.autoRenewPeriod = duration(autoRenewPeriodSeconds);
  if (memo !== "") body.memo = memo;
  if (type === "nft") body.tokenType = 1; // NON_FUNGIBLE_UNIQUE
  if (supplyType === "finite") body.supplyType = 1; // FINITE
  if (maxSupply !== 0n) body.maxSupply = long(maxSupply);
  if (feeSpecs.length > 0) body.customFees = customFeesToProto(feeSpecs, ctx.ledger);
  if (metadata.length > 0) body.metadata = metadata;

  const provisionalNum = ctx.ledger.peekEntityNum();
  const provisionalFees = customFeesToState(feeSpecs, ctx.ledger, provisionalNum);
  const collectors = collectorsNeedingAssociation(provisionalFees, provisionalNum).map((n) =>
    ctx.ledger.accountByNum(n),
  );
  const signers: ResolvedKey[] = [treasury.key];
  if (keys.admin !== undefined) signers.push(keys.admin);
  if (autoRenewAccount !== null) signers.push(autoRenewAccount.key);
  for (const collector of collectors) signers.push(collector.key);

  return {
    body: { tokenCreation: body },
    signers,
    feeTinybars: feeSpecs.length > 0 ? FEES.tokenCreateCustomFees : FEES.tokenCreate,
    maxFeeTinybars: TOKEN_CREATE_MAX_FEE,
    execute(fx) {
      if (treasury.deleted) throw new TxFailure("INVALID_TREASURY_ACCOUNT_FOR_TOKEN", treasury.name);
      if (name === "") throw new TxFailure("MISSING_TOKEN_NAME", handle);
      if (symbol === "") throw new TxFailure("MISSING_TOKEN_SYMBOL", handle);
      if (type === "nft") {
        if (decimals !== 0) throw new TxFailure("INVALID_TOKEN_DECIMALS", "an NFT has no decimals");
        if (initialSupply !== 0n) throw new TxFailure("INVALID_TOKEN_INITIAL_SUPPLY", "an NFT starts empty");
        if (keys.supply === undefined) throw new TxFailure("TOKEN_HAS_NO_SUPPLY_KEY", handle);
      }
      if (supplyType === "finite" && (maxSupply <= 0n || initialSupply > maxSupply)) {
        throw new TxFailure(
          maxSupply <= 0n ? "INVALID_TOKEN_MAX_SUPPLY" : "INVALID_TOKEN_INITIAL_SUPPLY",
          handle,
        );
      }
      if (supplyType === "infinite" && maxSupply !== 0n)
        throw new TxFailure("INVALID_TOKEN_MAX_SUPPLY", handle);
      if (freezeDefault && keys.freeze === undefined) throw new TxFailure("TOKEN_HAS_NO_FREEZE_KEY", handle);
      if (autoRenewAccount?.deleted) throw new TxFailure("INVALID_AUTORENEW_ACCOUNT", autoRenewAccount.name);
      validateCustomFees(provisionalFees, { num: provisionalNum, type }, ctx.ledger, true);

      const token: Token = {
        handle,
        num: ctx.ledger.allocateEntityNum(),
        name,
        symbol,
        type,
        decimals,
        treasury: treasury.num,
        keys,
        finite: supplyType === "finite",
        maxSupply,
        totalSupply: 0n,
        freezeDefault,
        customFees: provisionalFees,
        paused: false,
        deleted: false,
        memo,
        autoRenewAccount: autoRenewAccount?.num ?? 0n,
        autoRenewPeriodSeconds,
        expirySeconds:
          expiryNs !== null
            ? expiryNs / NANOS_PER_SECOND
            : ctx.consensusNs / NANOS_PER_SECOND + autoRenewPeriodSeconds,
        metadata,
        createdNs: ctx.consensusNs,
        nextSerial: 1n,
        nfts: new Map(),
      };
      ctx.ledger.addToken(token);
      // The create associates the treasury (unfrozen, KYC granted) and the collectors (as any association).
      for (const holder of [treasury.num, ...collectors.map((c) => c.num)]) {
        if (ctx.ledger.rel(holder, token.num) !== undefined) continue;
        ctx.ledger.setRel(holder, token.num, Ledger.newRel(token, false, holder === treasury.num));
        fx.autoAssociations.push({ token: token.num, account: holder });
      }
      if (initialSupply > 0n) {
        fx.tokenDelta(token.num, treasury.num, initialSupply);
        token.totalSupply = initialSupply;
      }
      fx.receipt.tokenId = token.num;
    },
  };
}

export function tokenUpdate(args: Args, ctx: HandlerContext): Prepared {
  const token = ctx.ledger.token(args.str("token"));
  const name = args.optStr("name");
  const symbol = args.optStr("symbol");
  const memo = args.optStr("memo");
  const treasury = args.has("treasury") ? ctx.ledger.account(args.str("treasury")) : undefined;
  const keys = readKeys(args, ctx);
  const expiryNs = args.has("expiry") ? parseInstant(args.str("expiry")) : undefined;
  const autoRenewAccount = args.has("autoRenewAccount")
    ? ctx.ledger.account(args.str("autoRenewAccount"))
    : undefined;
  const autoRenewPeriodSeconds = args.has("autoRenewPeriod")
    ? args.durationNs("autoRenewPeriod") / NANOS_PER_SECOND
    : undefined;
  const metadata = args.has("metadata") ? args.bytes("metadata") : undefined;

  const body: proto.ITokenUpdateTransactionBody = { token: tokenId(token.num) };
  if (symbol !== undefined) body.symbol = symbol;
  if (name !== undefined) body.name = name;
  if (treasury !== undefined) body.treasury = accountId(treasury.num);
  keysToBody(keys, body as Record<string, unknown>);
  if (autoRenewAccount !== undefined) body.autoRenewAccount = accountId(autoRenewAccount.num);
  if (autoRenewPeriodSeconds !== undefined) body.autoRenewPeriod = duration(autoRenewPeriodSeconds);
  if (expiryNs !== undefined) body.expiry = timestamp(expiryNs);
  if (memo !== undefined) body.memo = { value: memo };
  if (metadata !== undefined) body.metadata = { value: metadata };

  // Role keys and metadata may change under their own key (HIP-540, HIP-646); everything else needs the admin key.
  const roleKeysOnly = Object.keys(keys).every((role) => role !== "admin");
  const needsAdmin =
    !roleKeysOnly ||
    [name, symbol, memo, treasury, expiryNs, autoRenewAccount, autoRenewPeriodSeconds].some(
      (v) => v !== undefined,
    ) ||
    (metadata !== undefined && token.keys.metadata === undefined);
  const signers: ResolvedKey[] = [];
  if (token.keys.admin !== undefined) signers.push(token.keys.admin);
  else {
    for (const role of Object.keys(keys) as TokenKeyRole[]) {
      const current = token.keys[role];
      if (current !== undefined) signers.push(current);
    }
    if (metadata !== undefined && token.keys.metadata !== undefined) signers.push(token.keys.metadata);
  }
  if (treasury !== undefined) signers.push(treasury.key);
  if (autoRenewAccount !== undefined) signers.push(autoRenewAccount.key);
  // New keys sign too (the default FULL_VALIDATION mode); a removal has nothing to sign with.
  for (const key of Object.values(keys)) if (!isRemoval(key)) signers.push(key);

  return {
    body: { tokenUpdate: body },
    signers,
    feeTinybars: FEES.tokenUpdate,
    execute(fx) {
      requireUsableToken(token);
      if (needsAdmin && token.keys.admin === undefined)
        throw new TxFailure("TOKEN_IS_IMMUTABLE", token.handle);
      for (const role of Object.keys(keys) as TokenKeyRole[]) {
        if (token.keys[role] === undefined) {
          throw new TxFailure(role === "admin" ? "TOKEN_IS_IMMUTABLE" : noKeyStatus(role), token.handle);
        }
      }
      if (autoRenewAccount !== undefined) requireLiveAccount(autoRenewAccount);
      if (treasury !== undefined && treasury.num !== token.treasury)
        changeTreasury(token, treasury.num, ctx, fx);
      for (const [role, key] of Object.entries(keys) as [TokenKeyRole, ResolvedKey][]) {
        if (isRemoval(key)) delete token.keys[role];
        else token.keys[role] = key;
      }
      if (name !== undefined && name !== "") token.name = name;
      if (symbol !== undefined && symbol !== "") token.symbol = symbol;
      if (memo !== undefined) token.memo = memo;
      if (metadata !== undefined) token.metadata = metadata;
      if (expiryNs !== undefined) token.expirySeconds = expiryNs / NANOS_PER_SECOND;
      if (autoRenewAccount !== undefined) token.autoRenewAccount = autoRenewAccount.num;
      if (autoRenewPeriodSeconds !== undefined) token.autoRenewPeriodSeconds = autoRenewPeriodSeconds;
    },
  };
}

/**
 * Moves the treasury as a node does: the new treasury is associated (automatically if it has free slots),
 * a fungible balance moves over as a token transfer, and an NFT token's treasury-owned NFTs change owner,
 * which the record shows as one NFT transfer with the wildcard serial -1.
 */
function changeTreasury(token: Token, newTreasury: bigint, ctx: HandlerContext, fx: Effects): void {
  const account = ctx.ledger.accountByNum(newTreasury);
  if (account.deleted) throw new TxFailure("INVALID_TREASURY_ACCOUNT_FOR_TOKEN", account.name);
  let newRel = ctx.ledger.rel(newTreasury, token.num);
  if (newRel === undefined) {
    newRel = autoAssociate(account, token, ctx, fx);
    if (newRel === undefined)
      throw new TxFailure("TOKEN_NOT_ASSOCIATED_TO_ACCOUNT", `${account.name} and ${token.handle}`);
  }
  const oldTreasury = token.treasury;
  const oldRel = ctx.ledger.rel(oldTreasury, token.num)!;
  if (oldRel.balance > 0n) {
    for (const rel of [oldRel, newRel]) {
      if (rel.frozen) throw new TxFailure("ACCOUNT_FROZEN_FOR_TOKEN", token.handle);
      if (!rel.kycGranted) throw new TxFailure("ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN", token.handle);
    }
    if (token.type === "fungible") {
      const balance = oldRel.balance;
      fx.tokenDelta(token.num, oldTreasury, -balance);
      fx.tokenDelta(token.num, newTreasury, balance);
    } else {
      if (newRel.balance !== 0n)
        throw new TxFailure("TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES", account.name);
      for (const nft of token.nfts.values()) {
        if (nft.owner === oldTreasury) {
          nft.owner = newTreasury;
          nft.spender = 0n;
        }
      }
      newRel.balance = oldRel.balance;
      oldRel.balance = 0n;
    }
  }
  if (token.type === "nft")
    fx.recordNftMove(token.num, { serial: -1n, sender: oldTreasury, receiver: newTreasury });
  token.treasury = newTreasury;
}

function noKeyStatus(role: TokenKeyRole): string {
  const names: Record<TokenKeyRole, string> = {
    admin: "TOKEN_IS_IMMUTABLE",
    kyc: "TOKEN_HAS_NO_KYC_KEY",
    freeze: "TOKEN_HAS_NO_FREEZE_KEY",
    wipe: "TOKEN_HAS_NO_WIPE_KEY",
    supply: "TOKEN_HAS_NO_SUPPLY_KEY",
    feeSchedule: "TOKEN_HAS_NO_FEE_SCHEDULE_KEY",
    pause: "TOKEN_HAS_NO_PAUSE_KEY",
    metadata: "TOKEN_HAS_NO_METADATA_KEY",
  };
  return names[role];
}

export function tokenFeeScheduleUpdate(args: Args, ctx: HandlerContext): Prepared {
  const token = ctx.ledger.token(args.str("token"));
  const specs = parseCustomFees(`${args.where}.customFees`, args.list("customFees"));
  return {
    body: {
      tokenFeeScheduleUpdate: {
        tokenId: tokenId(token.num),
        customFees: customFeesToProto(specs, ctx.ledger),
      },
    },
    signers: token.keys.feeSchedule === undefined ? [] : [token.keys.feeSchedule],
    feeTinybars: FEES.tokenFeeScheduleUpdate,
    execute() {
      if (token.deleted) throw new TxFailure("TOKEN_WAS_DELETED", token.handle);
      requireTokenKey(token, "feeSchedule", "TOKEN_HAS_NO_FEE_SCHEDULE_KEY");
      const fees = customFeesToState(specs, ctx.ledger, token.num);
      validateCustomFees(fees, token, ctx.ledger, false);
      token.customFees = fees;
    },
  };
}

export function tokenDelete(args: Args, ctx: HandlerContext): Prepared {
  const token = ctx.ledger.token(args.str("token"));
  return {
    body: { tokenDeletion: { token: tokenId(token.num) } },
    signers: token.keys.admin === undefined ? [] : [token.keys.admin],
    feeTinybars: FEES.tokenDelete,
    execute() {
      requireUsableToken(token);
      requireTokenKey(token, "admin", "TOKEN_IS_IMMUTABLE");
      token.deleted = true;
    },
  };
}

function pauseStep(paused: boolean) {
  return (args: Args, ctx: HandlerContext): Prepared => {
    const token = ctx.ledger.token(args.str("token"));
    const typed = { token: tokenId(token.num) };
    return {
      body: paused ? { tokenPause: typed } : { tokenUnpause: typed },
      signers: token.keys.pause === undefined ? [] : [token.keys.pause],
      feeTinybars: FEES.tokenPause,
      execute() {
        if (token.deleted) throw new TxFailure("TOKEN_WAS_DELETED", token.handle);
        requireTokenKey(token, "pause", "TOKEN_HAS_NO_PAUSE_KEY");
        token.paused = paused;
      },
    };
  };
}

export const tokenPause = pauseStep(true);
export const tokenUnpause = pauseStep(false);
