/**
 * Balance changes of one transaction: every hbar, token and NFT movement goes through here, which both
 * updates the ledger and remembers the net change per account, so the record's lists come out as a node
 * builds them from its state changes (net amounts, zero amounts dropped, accounts and tokens sorted by
 * number, NFT transfers in the order they happened).
 */
import type { proto } from "../proto.ts";
import type { Ledger } from "./ledger.ts";
import { ScenarioError } from "./ledger.ts";
import { accountId, long, tokenId } from "./pb.ts";

export type NftMove = { serial: bigint; sender: bigint; receiver: bigint };

export type AssessedFee = { amount: bigint; token: bigint; collector: bigint; payers: bigint[] };

/** A synthetic transaction the node ran before this one (an account auto-created for an alias). */
export type PrecedingChild = {
  body: proto.ITransactionBody;
  effects: Effects;
  feeTinybars: bigint;
};

export class Effects {
  private readonly ledger: Ledger;
  readonly hbar = new Map<bigint, bigint>();
  readonly fungible = new Map<bigint, Map<bigint, bigint>>();
  readonly nfts = new Map<bigint, NftMove[]>();
  readonly assessedFees: AssessedFee[] = [];
  readonly autoAssociations: { token: bigint; account: bigint }[] = [];
  readonly precedingChildren: PrecedingChild[] = [];
  readonly receipt: {
    accountId?: bigint;
    tokenId?: bigint;
    newTotalSupply?: bigint;
    serialNumbers?: bigint[];
  } = {};
  alias: Uint8Array | null = null;
  evmAddress: Uint8Array | null = null;

  constructor(ledger: Ledger) {
    this.ledger = ledger;
  }

  /** Moves tinybars in or out of an account; callers have checked the balance. */
  hbarDelta(account: bigint, delta: bigint): void {
    const acct = this.ledger.accountByNum(account);
    acct.balance += delta;
    if (acct.balance < 0n) throw new ScenarioError(`0.0.${account} would hold a negative hbar balance`);
    this.hbar.set(account, (this.hbar.get(account) ?? 0n) + delta);
  }

  /** Changes a fungible token balance; the account must be associated. */
  tokenDelta(token: bigint, account: bigint, delta: bigint): void {
    const rel = this.ledger.rel(account, token);
    if (rel === undefined) throw new ScenarioError(`0.0.${account} is not associated with 0.0.${token}`);
    rel.balance += delta;
    if (rel.balance < 0n)
      throw new ScenarioError(`0.0.${account} would hold a negative balance of 0.0.${token}`);
    let perAccount = this.fungible.get(token);
    if (perAccount === undefined) {
      perAccount = new Map();
      this.fungible.set(token, perAccount);
    }
    perAccount.set(account, (perAccount.get(account) ?? 0n) + delta);
  }

  /**
   * Records an NFT changing hands. `sender` 0 is a mint, `receiver` 0 a burn or wipe. The NFT itself
   * (owner, spender) is updated by the caller; this keeps the owners' NFT counts in step.
   */
  nftMove(token: bigint, move: NftMove): void {
    if (move.sender !== 0n) this.adjustNftCount(move.sender, token, -1n);
    if (move.receiver !== 0n) this.adjustNftCount(move.receiver, token, 1n);
    this.recordNftMove(token, move);
  }

  /** Adds an NFT transfer to the record only (the treasury-change sentinel with serial -1). */
  recordNftMove(token: bigint, move: NftMove): void {
    let moves = this.nfts.get(token);
    if (moves === undefined) {
      moves = [];
      this.nfts.set(token, moves);
    }
    moves.push(move);
  }

  private adjustNftCount(account: bigint, token: bigint, delta: bigint): void {
    const rel = this.ledger.rel(account, token);
    if (rel === undefined) throw new ScenarioError(`0.0.${account} is not associated with 0.0.${token}`);
    rel.balance += delta;
  }

  /** The record's `transferList`: net hbar changes, zeros dropped, by account number. */
  transferList(): proto.ITransferList {
    return { accountAmounts: sortedAmounts(this.hbar, true) };
  }

  /**
   * The record's `tokenTransferLists`, ordered by token number. A CryptoTransfer keeps zero net amounts
   * of accounts it touched (nodes do, for compatibility with older records); other transactions drop them.
   */
  tokenTransferLists(keepZeroAmounts: boolean): proto.ITokenTransferList[] {
    const lists: { token: bigint; list: proto.ITokenTransferList }[] = [];
    for (const [token, perAccount] of this.fungible) {
      const transfers = sortedAmounts(perAccount, !keepZeroAmounts);
      if (transfers.length > 0) lists.push({ token, list: { token: tokenId(token), transfers } });
    }
    for (const [token, moves] of this.nfts) {
      if (moves.length === 0) continue;
      const nftTransfers = moves.map((m) => ({
        senderAccountID: accountId(m.sender),
        receiverAccountID: accountId(m.receiver),
        serialNumber: long(m.serial),
      }));
      lists.push({ token, list: { token: tokenId(token), nftTransfers } });
    }
    lists.sort((a, b) => compareBigint(a.token, b.token));
    return lists.map((l) => l.list);
  }

  assessedCustomFees(): proto.IAssessedCustomFee[] {
    return this.assessedFees.map((fee) => {
      const out: proto.IAssessedCustomFee = {
        amount: long(fee.amount),
        feeCollectorAccountId: accountId(fee.collector),
        effectivePayerAccountId: fee.payers.map(accountId),
      };
      if (fee.token !== 0n) out.tokenId = tokenId(fee.token);
      return out;
    });
  }

  automaticTokenAssociations(): proto.ITokenAssociation[] {
    return this.autoAssociations.map((a) => ({ tokenId: tokenId(a.token), accountId: accountId(a.account) }));
  }
}

function sortedAmounts(amounts: Map<bigint, bigint>, dropZeros: boolean): proto.IAccountAmount[] {
  return [...amounts]
    .filter(([, amount]) => !dropZeros || amount !== 0n)
    .sort(([a], [b]) => compareBigint(a, b))
    .map(([account, amount]) =>
      amount === 0n
        ? { accountID: accountId(account) }
        : { accountID: accountId(account), amount: long(amount) },
    );
}

export function compareBigint(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
