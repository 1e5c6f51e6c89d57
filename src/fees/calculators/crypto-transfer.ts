import { toBigInt } from "../../streams/long.ts";
import type { proto } from "../../streams/proto.ts";
import { unknownTransactionType } from "../errors.ts";
import type { ServiceFees } from "../fee-result.ts";
import type { FeeState } from "../fee-state.ts";
import type { ServiceCalculator } from "./types.ts";

/** The per-call gas ceiling the fee library assumes for a hook (`contracts.maxGasPerTransaction`). */
const MAX_GAS_PER_HOOK_CALL = 15_000_000n;

type HookCall = proto.IHookCall | null | undefined;

/**
 * CryptoTransfer (fees.md §4.4): distinct accounts, hook executions with their gas (STATE only), and the token
 * part, which INTRINSIC and STATE count differently. A TokenAirdrop is priced as a transfer of its token lists.
 */
function priceTransfer(
  fees: ServiceFees,
  state: FeeState | null,
  hbar: readonly proto.IAccountAmount[],
  tokenLists: readonly proto.ITokenTransferList[],
): void {
  fees.setBase(fees.definition.baseFee);
  const accounts = new Set<string>();
  let invocations = 0n;
  let gas = 0n;
  const countHooks = (pre: HookCall, prePost: HookCall) => {
    // A pre+post hook runs twice: its gas limit counts twice too.
    if (pre != null) {
      invocations += 1n;
      gas += toBigInt(pre.evmHookCall?.gasLimit);
    }
    if (prePost != null) {
      invocations += 2n;
      gas += 2n * toBigInt(prePost.evmHookCall?.gasLimit);
    }
  };
  const addAmounts = (amounts: readonly proto.IAccountAmount[]) => {
    for (const amount of amounts) {
      // The Java library dereferences the account id: a transfer without one is refused.
      if (amount.accountID == null) throw unknownTransactionType();
      accounts.add(accountKey(amount.accountID));
      countHooks(amount.preTxAllowanceHook, amount.prePostTxAllowanceHook);
    }
  };
  addAmounts(hbar);
  for (const list of tokenLists) {
    addAmounts(list.transfers ?? []);
    for (const nft of list.nftTransfers ?? []) {
      accounts.add(accountKey(nft.senderAccountID));
      accounts.add(accountKey(nft.receiverAccountID));
      countHooks(nft.preTxSenderAllowanceHook, nft.prePostTxSenderAllowanceHook);
      countHooks(nft.preTxReceiverAllowanceHook, nft.prePostTxReceiverAllowanceHook);
    }
  }
  fees.addExtra("ACCOUNTS", BigInt(accounts.size));
  if (invocations > 0n) {
    // Without a fee context (INTRINSIC) the Java calculator fails on hooks: the mirror node answers 400.
    if (state === null) throw unknownTransactionType();
    fees.addExtra("HOOK_EXECUTION", invocations);
    const cap = invocations * MAX_GAS_PER_HOOK_CALL;
    fees.addExtra("GAS", gas < cap ? gas : cap);
  }
  if (state === null) {
    // INTRINSIC: one TOKEN_TYPES entry per list, counting its transfers; no token base fee.
    for (const list of tokenLists) {
      fees.addExtra("TOKEN_TYPES", BigInt((list.transfers?.length ?? 0) + (list.nftTransfers?.length ?? 0)));
    }
    return;
  }
  let tokenTypes = 0n;
  let anyWithCustomFees = false;
  for (const list of tokenLists) {
    const facts = state.token(toBigInt(list.token?.tokenNum));
    if (facts === undefined) continue; // not indexed: skipped, as the mirror node does
    const counted = facts.nonFungible
      ? BigInt(list.nftTransfers?.length ?? 0)
      : (list.transfers?.length ?? 0) > 0
        ? 1n
        : 0n;
    if (counted === 0n) continue;
    tokenTypes += counted;
    if (facts.hasCustomFees) anyWithCustomFees = true;
  }
  if (anyWithCustomFees) fees.addExtra("TOKEN_TRANSFER_BASE_CUSTOM_FEES", 1n);
  else if (tokenTypes > 0n) fees.addExtra("TOKEN_TRANSFER_BASE", 1n);
  fees.addExtra("TOKEN_TYPES", tokenTypes);
}

/** Distinct-account key: shard, realm and the number or alias, as Java record equality compares them. */
function accountKey(id: proto.IAccountID | null | undefined): string {
  if (id == null) return "none";
  const alias = id.alias != null && id.alias.length > 0 ? `a${Buffer.from(id.alias).toString("hex")}` : "";
  return `${toBigInt(id.shardNum)}.${toBigInt(id.realmNum)}.${toBigInt(id.accountNum)}${alias}`;
}

export const TRANSFER_CALCULATORS: Record<string, ServiceCalculator> = {
  cryptoTransfer: {
    functionality: "CryptoTransfer",
    calculate({ body, fees, state }) {
      const op = body.cryptoTransfer!;
      priceTransfer(fees, state, op.transfers?.accountAmounts ?? [], op.tokenTransfers ?? []);
    },
  },
  tokenAirdrop: {
    // Its own schedule entry only supplies the high-volume curve; the price is a CryptoTransfer's.
    functionality: "TokenAirdrop",
    pricedAs: "CryptoTransfer",
    calculate({ body, fees, state }) {
      priceTransfer(fees, state, [], body.tokenAirdrop!.tokenTransfers ?? []);
    },
  },
};
