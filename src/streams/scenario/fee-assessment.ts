/**
 * Custom fee assessment for a CryptoTransfer, following the node's rules (hedera-services
 * `CustomFeeAssessmentStep` and its fixed, fractional and royalty assessors):
 *
 * - Each token list of the body is visited in order; for a fungible token every debited account that is not
 *   the treasury is assessed, for an NFT every transfer whose sender is not the treasury.
 * - Fixed fees first (skipped when the payer is the collector, the treasury, or any collector of a token
 *   whose fee exempts all collectors), then fractional fees (fungible) or royalty fees (NFT).
 * - A fractional fee is taken from what the non-exempt receivers get, in proportion, unless it is net of
 *   transfers, in which case the sender pays it on top. It is units sent x numerator / denominator, raised
 *   to the minimum and capped at the maximum.
 * - A royalty is a fraction of every fungible value (hbar or token) the NFT's sender receives in the same
 *   transaction, paid by that sender; when the sender receives nothing, the receiver pays the fallback fee.
 *   Each account pays a token's royalty (or fallback) once per transaction.
 *
 * Fees charged in units of a token that has custom fees of its own would trigger another round of
 * assessment on a node; the simulator rejects such scenarios instead of guessing.
 */
import type { AssessedFee } from "./effects.ts";
import { type CustomFee, type FixedAmount, type Ledger, ScenarioError, type Token } from "./ledger.ts";

export type NftTransferInput = { sender: bigint; receiver: bigint; serial: bigint; approval: boolean };

/** One token list of a CryptoTransfer body. */
export type TokenTransferInput =
  | { token: Token; kind: "fungible"; amounts: Map<bigint, bigint> }
  | { token: Token; kind: "nft"; moves: NftTransferInput[] };

export type Assessment = {
  /** Net hbar changes: the body's plus every hbar fee. */
  hbar: Map<bigint, bigint>;
  /** Net fungible changes per token: the body's, reduced by fractional fees, plus token-denominated fees. */
  tokens: Map<bigint, Map<bigint, bigint>>;
  assessed: AssessedFee[];
};

export function assessCustomFees(
  hbarInput: Map<bigint, bigint>,
  lists: TokenTransferInput[],
  ledger: Ledger,
): Assessment {
  const run = new AssessmentRun(hbarInput, lists, ledger);
  for (const list of lists) {
    const token = list.token;
    if (token.customFees.length === 0) continue;
    if (list.kind === "fungible") {
      for (const [account, amount] of list.amounts) {
        if (amount < 0n && account !== token.treasury) run.assess(token, account, null);
      }
    } else {
      for (const move of list.moves) {
        if (move.sender !== token.treasury) run.assess(token, move.sender, move.receiver);
      }
    }
  }
  return run.result();
}

class AssessmentRun {
  private readonly ledger: Ledger;
  private readonly hbarInput: Map<bigint, bigint>;
  /** The body's fungible amounts, as given: what fractional fees and royalties are computed from. */
  private readonly givenTokens = new Map<bigint, Map<bigint, bigint>>();
  /** The body's fungible amounts after fractional and self-denominated fees. */
  private readonly adjustedTokens = new Map<bigint, Map<bigint, bigint>>();
  private readonly hbarFees = new Map<bigint, bigint>();
  /** Fees in units of another token (a node assesses these in a next round). */
  private readonly otherTokenFees = new Map<bigint, Map<bigint, bigint>>();
  private readonly assessed: AssessedFee[] = [];
  private readonly royaltiesPaid = new Set<string>();

  constructor(hbarInput: Map<bigint, bigint>, lists: TokenTransferInput[], ledger: Ledger) {
    this.ledger = ledger;
    this.hbarInput = hbarInput;
    for (const list of lists) {
      if (list.kind !== "fungible") continue;
      this.givenTokens.set(list.token.num, new Map(list.amounts));
      this.adjustedTokens.set(list.token.num, new Map(list.amounts));
    }
  }

  assess(token: Token, sender: bigint, receiver: bigint | null): void {
    for (const fee of token.customFees) {
      if (fee.kind === "fixed" && fee.collector !== sender) this.chargeFixed(token, fee, sender, fee);
    }
    if (token.type === "fungible") this.assessFractional(token, sender);
    else if (receiver !== null) this.assessRoyalty(token, sender, receiver);
  }

  private chargeFixed(token: Token, fee: CustomFee, payer: bigint, amount: FixedAmount): void {
    if (isPayerExempt(token, fee, payer)) return;
    const target =
      amount.denomination === 0n
        ? this.hbarFees
        : amount.denomination === token.num
          ? mapFor(this.adjustedTokens, token.num)
          : mapFor(this.otherTokenFees, amount.denomination);
    add(target, payer, -amount.amount);
    add(target, fee.collector, amount.amount);
    this.assessed.push({
      amount: amount.amount,
      token: amount.denomination,
      collector: fee.collector,
      payers: [payer],
    });
  }

  private assessFractional(token: Token, sender: bigint): void {
    const given = this.givenTokens.get(token.num);
    const debit = given?.get(sender) ?? 0n;
    if (given === undefined || debit >= 0n)
      throw new ScenarioError(`custom fees charged on a credit of ${token.handle}`);
    let unitsLeft = -debit;
    const credits = [...given].filter(([, amount]) => amount > 0n);
    for (const fee of token.customFees) {
      if (fee.kind !== "fractional" || fee.collector === sender) continue;
      const payers = new Map(credits.filter(([account]) => !isPayerExempt(token, fee, account)));
      if (payers.size === 0) continue;
      // Every fractional fee is computed from the amount sent, not from what earlier fees left.
      let amount = amountOwed(-debit, fee);
      if (fee.netOfTransfers) {
        this.chargeFixed(token, fee, sender, { amount, denomination: token.num });
        continue;
      }
      const before = new Map(payers);
      amount -= reclaim(amount, payers);
      unitsLeft -= amount;
      if (unitsLeft < 0n) {
        throw new ScenarioError(
          `fractional fees of ${token.handle} exceed the amount sent (INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE)`,
        );
      }
      const adjusted = mapFor(this.adjustedTokens, token.num);
      for (const [account, left] of payers) add(adjusted, account, left - before.get(account)!);
      add(adjusted, fee.collector, amount);
      this.assessed.push({ amount, token: token.num, collector: fee.collector, payers: [...payers.keys()] });
    }
  }

  private assessRoyalty(token: Token, sender: bigint, receiver: bigint): void {
    if (this.royaltiesPaid.has(`${sender}/${token.num}`)) return;
    const exchanged = this.creditsTo(sender);
    for (const fee of token.customFees) {
      if (fee.kind !== "royalty") continue;
      if (exchanged.length === 0) {
        if (fee.fallback === null || this.royaltiesPaid.has(`${receiver}/${token.num}`)) continue;
        this.chargeFixed(token, fee, receiver, fee.fallback);
      } else if (!isPayerExempt(token, fee, sender)) {
        for (const value of exchanged) {
          const royalty = (value.amount * fee.numerator) / fee.denominator;
          const target = value.token === 0n ? this.hbarFees : mapFor(this.otherTokenFees, value.token);
          add(target, sender, -royalty);
          add(target, fee.collector, royalty);
          this.assessed.push({
            amount: royalty,
            token: value.token,
            collector: fee.collector,
            payers: [sender],
          });
        }
      }
    }
    this.royaltiesPaid.add(`${exchanged.length === 0 ? receiver : sender}/${token.num}`);
  }

  /** Fungible value credited to `account` by the body: token credits, then hbar. */
  private creditsTo(account: bigint): { token: bigint; amount: bigint }[] {
    const out: { token: bigint; amount: bigint }[] = [];
    for (const [token, amounts] of this.givenTokens) {
      const amount = amounts.get(account) ?? 0n;
      if (amount > 0n) out.push({ token, amount });
    }
    const hbar = this.hbarInput.get(account) ?? 0n;
    if (hbar > 0n) out.push({ token: 0n, amount: hbar });
    return out;
  }

  result(): Assessment {
    for (const token of this.otherTokenFees.keys()) {
      const denom = this.ledger.tokens.get(token);
      if (denom !== undefined && denom.customFees.length > 0) {
        throw new ScenarioError(
          `a custom fee is charged in ${denom.handle}, which has custom fees of its own: not simulated`,
        );
      }
    }
    const hbar = new Map(this.hbarInput);
    for (const [account, amount] of this.hbarFees) add(hbar, account, amount);
    const tokens = new Map<bigint, Map<bigint, bigint>>();
    for (const [token, amounts] of this.adjustedTokens) tokens.set(token, new Map(amounts));
    for (const [token, amounts] of this.otherTokenFees) {
      const target = mapFor(tokens, token);
      for (const [account, amount] of amounts) add(target, account, amount);
    }
    return { hbar, tokens, assessed: this.assessed };
  }
}

/** The node's exemptions: the treasury, the fee's own collector, and collectors of all-exempt fees. */
export function isPayerExempt(token: Token, fee: CustomFee, payer: bigint): boolean {
  if (payer === token.treasury || payer === fee.collector) return true;
  return fee.allCollectorsExempt && token.customFees.some((f) => f.collector === payer);
}

function amountOwed(units: bigint, fee: CustomFee & { kind: "fractional" }): bigint {
  let owed = (units * fee.numerator) / fee.denominator;
  if (owed < fee.minimum) owed = fee.minimum;
  if (fee.maximum > 0n && owed > fee.maximum) owed = fee.maximum;
  return owed;
}

/** Takes `amount` out of the credits in proportion, then any remainder in order; returns what could not be taken. */
function reclaim(amount: bigint, credits: Map<bigint, bigint>): bigint {
  let available = 0n;
  for (const credit of credits.values()) available += credit;
  let reclaimed = 0n;
  for (const [account, credit] of credits) {
    const share = available === 0n ? 0n : (credit * amount) / available;
    credits.set(account, credit - share);
    reclaimed += share;
  }
  let left = amount - reclaimed;
  for (const [account, credit] of credits) {
    if (left === 0n) break;
    const share = credit < left ? credit : left;
    credits.set(account, credit - share);
    reclaimed += share;
    left -= share;
  }
  return amount - reclaimed;
}

function mapFor(maps: Map<bigint, Map<bigint, bigint>>, key: bigint): Map<bigint, bigint> {
  let map = maps.get(key);
  if (map === undefined) {
    map = new Map();
    maps.set(key, map);
  }
  return map;
}

function add(map: Map<bigint, bigint>, key: bigint, delta: bigint): void {
  map.set(key, (map.get(key) ?? 0n) + delta);
}
