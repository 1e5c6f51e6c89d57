/**
 * CryptoTransfer: hbar, fungible token and NFT transfers, NFT transfers by an approved spender, custom
 * fees, automatic associations, and hbar sent to a new alias (which auto-creates the account in a preceding
 * child record, as nodes do).
 *
 *   - cryptoTransfer:
 *       hbar: { alice: "-5 hbar", bob: "5 hbar" }
 *       tokens: { GOLD: { alice: -100, bob: 100 } }
 *       nfts: { ART: [{ serial: 1, from: alice, to: bob, approval?: true }] }
 *       createAliases: { dave: ed25519 | ecdsa }   # names in `hbar` that do not exist yet
 *
 * Like SDKs, the body lists hbar amounts by account, token lists by token and fungible amounts by account;
 * NFT transfers keep the scenario's order.
 */
import type { proto } from "../proto.ts";
import { Args } from "./args.ts";
import { compareBigint, Effects } from "./effects.ts";
import { assessCustomFees, type NftTransferInput, type TokenTransferInput } from "./fee-assessment.ts";
import type { KeySpec, ResolvedKey } from "./keys.ts";
import { type Account, ScenarioError, type Token, TxFailure } from "./ledger.ts";
import { FEES } from "./network-fees.ts";
import { accountId, duration, long, tokenId } from "./pb.ts";
import { type HandlerContext, type Prepared, requireLiveAccount, requireUsableToken } from "./step.ts";
import { autoAssociate } from "./token-account-steps.ts";

/** What a node writes as the memo of an account it creates for an alias. */
export const AUTO_CREATED_MEMO = "auto-created account";
const AUTO_CREATED_AUTO_RENEW_SECONDS = 7_776_000n;

type NewAlias = {
  name: string;
  spec: KeySpec;
  key: ResolvedKey;
  alias: Uint8Array;
  evmAddress: Uint8Array | null;
};

export function cryptoTransfer(args: Args, ctx: HandlerContext): Prepared {
  const aliases = readAliases(args, ctx);
  const hbarInput = readAmounts(args, "hbar", ctx, aliases, true);
  const fungible = readFungible(args, ctx);
  const nfts = readNfts(args, ctx);

  // Assessment follows the body, which lists tokens and accounts by number.
  fungible.sort((a, b) => compareBigint(a.token.num, b.token.num));
  for (const f of fungible)
    f.amounts = new Map([...f.amounts].sort(([a], [b]) => compareBigint(a.num, b.num)));
  nfts.sort((a, b) => compareBigint(a.token.num, b.token.num));
  const body = transferBody(hbarInput, fungible, nfts, aliases);
  const signers: ResolvedKey[] = [];
  for (const [who, amount] of hbarInput) if (amount < 0n && typeof who !== "string") signers.push(who.key);
  for (const { amounts } of fungible)
    for (const [who, amount] of amounts) if (amount < 0n) signers.push(who.key);
  for (const { moves } of nfts) for (const move of moves) if (!move.approval) signers.push(move.from.key);
  const tokens = [...fungible.map((f) => f.token), ...nfts.map((n) => n.token)];
  const feeTinybars =
    tokens.length === 0
      ? FEES.cryptoTransfer
      : tokens.some((t) => t.customFees.length > 0)
        ? FEES.cryptoTransferCustomFees
        : FEES.cryptoTransferTokens;

  return {
    body: { cryptoTransfer: body },
    signers,
    feeTinybars,
    isCryptoTransfer: true,
    execute(fx) {
      const hbar = new Map<bigint, bigint>();
      for (const [who, amount] of hbarInput) {
        const account = typeof who === "string" ? createAliasAccount(aliases.get(who)!, ctx, fx) : who;
        requireLiveAccount(account);
        hbar.set(account.num, (hbar.get(account.num) ?? 0n) + amount);
      }
      if (sum(hbar.values()) !== 0n)
        throw new TxFailure("INVALID_ACCOUNT_AMOUNTS", "hbar amounts do not add up to 0");

      const lists: TokenTransferInput[] = [];
      for (const { token, amounts } of fungible) {
        requireUsableToken(token);
        if (token.type !== "fungible") {
          throw new TxFailure("ACCOUNT_AMOUNT_TRANSFERS_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON", token.handle);
        }
        if (sum(amounts.values()) !== 0n)
          throw new TxFailure("TRANSFERS_NOT_ZERO_SUM_FOR_TOKEN", token.handle);
        const byNum = new Map<bigint, bigint>();
        for (const [account, amount] of amounts) {
          requireLiveAccount(account);
          requireRelation(account, token, amount > 0n, ctx, fx);
          byNum.set(account.num, (byNum.get(account.num) ?? 0n) + amount);
        }
        lists.push({ token, kind: "fungible", amounts: byNum });
      }
      for (const { token, moves } of nfts) {
        requireUsableToken(token);
        if (token.type !== "nft") throw new TxFailure("INVALID_NFT_ID", `${token.handle} is fungible`);
        const inputs: NftTransferInput[] = [];
        for (const move of moves) {
          requireLiveAccount(move.from);
          requireLiveAccount(move.to);
          const nft = token.nfts.get(move.serial);
          if (nft === undefined) throw new TxFailure("INVALID_NFT_ID", `${token.handle} #${move.serial}`);
          if (nft.owner !== move.from.num) {
            throw new TxFailure(
              "SENDER_DOES_NOT_OWN_NFT_SERIAL_NO",
              `${move.from.name} and ${token.handle} #${move.serial}`,
            );
          }
          if (move.approval) {
            const allowed =
              nft.spender === ctx.payer.num ||
              ctx.ledger.approvedForAll.has(`${move.from.num}/${token.num}/${ctx.payer.num}`);
            if (!allowed)
              throw new TxFailure("SPENDER_DOES_NOT_HAVE_ALLOWANCE", `${token.handle} #${move.serial}`);
          }
          requireRelation(move.from, token, false, ctx, fx);
          requireRelation(move.to, token, true, ctx, fx);
          inputs.push({
            sender: move.from.num,
            receiver: move.to.num,
            serial: move.serial,
            approval: move.approval,
          });
        }
        lists.push({ token, kind: "nft", moves: inputs });
      }
      lists.sort((a, b) => compareBigint(a.token.num, b.token.num));

      const assessment = assessCustomFees(hbar, lists, ctx.ledger);
      const feePayers = new Set(assessment.assessed.flatMap((fee) => fee.payers));
      for (const [account, delta] of assessment.hbar) {
        if (ctx.ledger.accountByNum(account).balance + delta < 0n) {
          throw new TxFailure(
            feePayers.has(account)
              ? "INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE"
              : "INSUFFICIENT_ACCOUNT_BALANCE",
            `0.0.${account}`,
          );
        }
      }
      for (const [token, amounts] of assessment.tokens) {
        for (const [account, delta] of amounts) {
          const rel = ctx.ledger.rel(account, token);
          const where = `0.0.${account} and 0.0.${token}`;
          if (rel === undefined) throw new TxFailure("TOKEN_NOT_ASSOCIATED_TO_FEE_COLLECTOR", where);
          if (delta !== 0n && rel.frozen) throw new TxFailure("ACCOUNT_FROZEN_FOR_TOKEN", where);
          if (delta !== 0n && !rel.kycGranted)
            throw new TxFailure("ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN", where);
          if (rel.balance + delta < 0n) {
            throw new TxFailure(
              feePayers.has(account)
                ? "INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE"
                : "INSUFFICIENT_TOKEN_BALANCE",
              where,
            );
          }
        }
      }

      for (const [account, delta] of assessment.hbar) if (delta !== 0n) fx.hbarDelta(account, delta);
      for (const [token, amounts] of assessment.tokens) {
        for (const [account, delta] of amounts) fx.tokenDelta(token, account, delta);
      }
      for (const list of lists) {
        if (list.kind !== "nft") continue;
        for (const move of list.moves) {
          const nft = list.token.nfts.get(move.serial)!;
          nft.owner = move.receiver;
          nft.spender = 0n;
          fx.nftMove(list.token.num, { serial: move.serial, sender: move.sender, receiver: move.receiver });
        }
      }
      fx.assessedFees.push(...assessment.assessed);
    },
  };
}

/** The relation a transfer needs: present (or created automatically for a receiver), unfrozen, KYC granted. */
function requireRelation(
  account: Account,
  token: Token,
  receiving: boolean,
  ctx: HandlerContext,
  fx: Effects,
): void {
  let rel = ctx.ledger.rel(account.num, token.num);
  if (rel === undefined && receiving) rel = autoAssociate(account, token, ctx, fx);
  if (rel === undefined)
    throw new TxFailure("TOKEN_NOT_ASSOCIATED_TO_ACCOUNT", `${account.name} and ${token.handle}`);
  if (rel.frozen) throw new TxFailure("ACCOUNT_FROZEN_FOR_TOKEN", `${account.name} and ${token.handle}`);
  if (!rel.kycGranted)
    throw new TxFailure("ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN", `${account.name} and ${token.handle}`);
}

/**
 * Creates the account an alias names, as the node's preceding child CryptoCreate: key and alias from the
 * alias key (an ECDSA key's account gets its EVM address as alias), memo "auto-created account", unlimited
 * automatic associations. The record reports the alias and, for ECDSA, the EVM address.
 */
function createAliasAccount(alias: NewAlias, ctx: HandlerContext, parentFx: Effects): Account {
  if (ctx.ledger.hasAccount(alias.name)) return ctx.ledger.account(alias.name);
  const account: Account = {
    name: alias.name,
    num: ctx.ledger.allocateEntityNum(),
    key: alias.key,
    balance: 0n,
    deleted: false,
    memo: AUTO_CREATED_MEMO,
    maxAutoAssociations: -1,
    usedAutoAssociations: 0,
    alias: alias.evmAddress ?? alias.alias,
    evmAddress: alias.evmAddress,
  };
  ctx.ledger.addAccount(account);
  const childFx = new Effects(ctx.ledger);
  childFx.receipt.accountId = account.num;
  childFx.alias = alias.alias;
  childFx.evmAddress = alias.evmAddress;
  parentFx.precedingChildren.push({
    body: {
      memo: AUTO_CREATED_MEMO,
      cryptoCreateAccount: {
        key: alias.key.proto,
        autoRenewPeriod: duration(AUTO_CREATED_AUTO_RENEW_SECONDS),
        memo: AUTO_CREATED_MEMO,
        maxAutomaticTokenAssociations: -1,
        alias: alias.evmAddress ?? alias.alias,
      },
    },
    effects: childFx,
    feeTinybars: FEES.autoCreation,
  });
  return account;
}

function readAliases(args: Args, ctx: HandlerContext): Map<string, NewAlias> {
  const out = new Map<string, NewAlias>();
  if (!args.has("createAliases")) return out;
  const map = args.sub("createAliases");
  for (const name of map.keys()) {
    const kind = map.str(name);
    if (kind !== "ed25519" && kind !== "ecdsa") map.fail(name, "ed25519 or ecdsa");
    if (ctx.ledger.hasAccount(name))
      throw new ScenarioError(`${map.where}.${name}: the account already exists`);
    const spec: KeySpec = kind === "ecdsa" ? { ecdsa: name } : { ed25519: name };
    const key = ctx.keys.resolve(spec);
    out.set(name, {
      name,
      spec,
      key,
      alias: key.bytes,
      evmAddress: kind === "ecdsa" ? ctx.keys.ecdsaKey(name).evmAddress : null,
    });
  }
  map.done();
  return out;
}

/** Amounts by account; with `allowAliases`, new alias names stay strings until the account exists. */
function readAmounts(
  args: Args,
  key: string,
  ctx: HandlerContext,
  aliases: Map<string, NewAlias>,
  allowAliases: boolean,
): Map<Account | string, bigint> {
  const out = new Map<Account | string, bigint>();
  if (!args.has(key)) return out;
  const map = args.sub(key);
  for (const name of map.keys()) {
    const amount = key === "hbar" ? map.tinybars(name) : map.bigint(name);
    if (allowAliases && aliases.has(name)) out.set(name, amount);
    else out.set(ctx.ledger.account(name), amount);
  }
  map.done();
  return out;
}

type FungibleInput = { token: Token; amounts: Map<Account, bigint> };
type NftMoveInput = { serial: bigint; from: Account; to: Account; approval: boolean };
type NftInput = { token: Token; moves: NftMoveInput[] };

function readFungible(args: Args, ctx: HandlerContext): FungibleInput[] {
  if (!args.has("tokens")) return [];
  const map = args.sub("tokens");
  const out = map.keys().map((handle) => {
    const amounts = readAmounts(map, handle, ctx, new Map(), false) as Map<Account, bigint>;
    return { token: ctx.ledger.token(handle), amounts };
  });
  map.done();
  return out;
}

function readNfts(args: Args, ctx: HandlerContext): NftInput[] {
  if (!args.has("nfts")) return [];
  const map = args.sub("nfts");
  const out = map.keys().map((handle) => ({
    token: ctx.ledger.token(handle),
    moves: map.list(handle).map((item, i) => {
      const a = new Args(`${map.where}.${handle}[${i}]`, item);
      const move = {
        serial: a.bigint("serial"),
        from: ctx.ledger.account(a.str("from")),
        to: ctx.ledger.account(a.str("to")),
        approval: a.bool("approval", false),
      };
      a.done();
      return move;
    }),
  }));
  map.done();
  return out;
}

function transferBody(
  hbar: Map<Account | string, bigint>,
  fungible: FungibleInput[],
  nfts: NftInput[],
  aliases: Map<string, NewAlias>,
): proto.ICryptoTransferTransactionBody {
  const body: proto.ICryptoTransferTransactionBody = {};
  if (hbar.size > 0) {
    // Accounts by number; aliases (no number yet) after them, as SDKs order them.
    const entries = [...hbar].sort(([a], [b]) =>
      typeof a === "string"
        ? typeof b === "string"
          ? a.localeCompare(b)
          : 1
        : typeof b === "string"
          ? -1
          : compareBigint(a.num, b.num),
    );
    body.transfers = {
      accountAmounts: entries.map(([who, amount]) => ({
        accountID: typeof who === "string" ? { alias: aliases.get(who)!.alias } : accountId(who.num),
        amount: long(amount),
      })),
    };
  }
  const lists: { num: bigint; list: proto.ITokenTransferList }[] = [];
  for (const { token, amounts } of fungible) {
    const transfers = [...amounts]
      .sort(([a], [b]) => compareBigint(a.num, b.num))
      .map(([account, amount]) => ({ accountID: accountId(account.num), amount: long(amount) }));
    lists.push({ num: token.num, list: { token: tokenId(token.num), transfers } });
  }
  for (const { token, moves } of nfts) {
    const nftTransfers = moves.map((m) => {
      const transfer: proto.INftTransfer = {
        senderAccountID: accountId(m.from.num),
        receiverAccountID: accountId(m.to.num),
        serialNumber: long(m.serial),
      };
      if (m.approval) transfer.isApproval = true;
      return transfer;
    });
    lists.push({ num: token.num, list: { token: tokenId(token.num), nftTransfers } });
  }
  lists.sort((a, b) => compareBigint(a.num, b.num));
  if (lists.length > 0) body.tokenTransfers = lists.map((l) => l.list);
  return body;
}

function sum(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const v of values) total += v;
  return total;
}
