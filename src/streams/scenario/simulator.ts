/**
 * The ledger simulator, one transaction at a time: a step's handler builds and applies the transaction, the
 * simulator charges the network fee, signs the transaction with the payer's and the required keys, and
 * builds the record, preceded by any child records (accounts auto-created for aliases). Scenario files
 * (`engine.ts`) and the bulk generator (`bulk.ts`) both drive it.
 */
import { createHash } from "node:crypto";
import type { RecordItem } from "../types.ts";
import {
  approveAllowance,
  cryptoCreate,
  cryptoDelete,
  cryptoUpdate,
  deleteAllowance,
} from "./account-steps.ts";
import type { Args } from "./args.ts";
import { Effects } from "./effects.ts";
import { KeyRing } from "./keys.ts";
import { type Account, Ledger, ScenarioError, TxFailure } from "./ledger.ts";
import { DEFAULT_MAX_FEE, FUNDING_ACCOUNT, NODE_ACCOUNT, nodeShare } from "./network-fees.ts";
import { formatNs, formatTransactionId } from "./pb.ts";
import type { HandlerContext, Prepared, StepHandler } from "./step.ts";
import type { StepSummary } from "./summary.ts";
import { tokenBurn, tokenMint, tokenUpdateNfts, tokenWipe } from "./supply-steps.ts";
import {
  tokenAssociate,
  tokenDissociate,
  tokenFreeze,
  tokenGrantKyc,
  tokenRevokeKyc,
  tokenUnfreeze,
} from "./token-account-steps.ts";
import {
  tokenCreate,
  tokenDelete,
  tokenFeeScheduleUpdate,
  tokenPause,
  tokenUnpause,
  tokenUpdate,
} from "./token-steps.ts";
import {
  buildRecord,
  recordItem,
  responseCode,
  signTransaction,
  transactionId,
  userBody,
} from "./transaction.ts";
import { cryptoTransfer } from "./transfer-step.ts";

const STEP_HANDLERS: Record<string, StepHandler> = {
  cryptoCreate,
  cryptoUpdate,
  cryptoDelete,
  cryptoTransfer,
  cryptoApproveAllowance: approveAllowance,
  cryptoDeleteAllowance: deleteAllowance,
  tokenCreate,
  tokenUpdate,
  tokenFeeScheduleUpdate,
  tokenDelete,
  tokenPause,
  tokenUnpause,
  tokenAssociate,
  tokenDissociate,
  tokenFreeze,
  tokenUnfreeze,
  tokenGrantKyc,
  tokenRevokeKyc,
  tokenMint,
  tokenBurn,
  tokenWipe,
  tokenUpdateNfts,
};

/** The transaction types a step may name. */
export const STEP_TYPES: readonly string[] = Object.keys(STEP_HANDLERS);

export const OPERATOR_NAME = "operator";
/** The operator pays by default; like a network's treasury 0.0.2 it starts with (nearly) all the hbar. */
export const OPERATOR_ACCOUNT = 2n;
const OPERATOR_START_BALANCE = 5_000_000_000n * 100_000_000n;

export type StreamItem = { consensusNs: bigint; item: RecordItem };

export type SimulatorOptions = {
  seed: string;
  firstEntity: bigint;
  /**
   * Sign every transaction for real (default). When false, each signer's signature is computed once and
   * reused: the bytes look like a node's input but do not verify, which is much faster for bulk streams.
   */
  realSignatures?: boolean;
};

/** A transaction step: its type, its arguments, where it comes from (for errors) and its index. */
export type StepInput = { type: string; args: Args; where: string; index: number };

export class Simulator {
  readonly ledger: Ledger;
  readonly keys: KeyRing;
  readonly operator: Account;
  private readonly realSignatures: boolean;
  private readonly random: () => number;
  private readonly usedTransactionIds = new Set<string>();

  constructor(options: SimulatorOptions) {
    this.keys = new KeyRing(options.seed);
    this.ledger = new Ledger(options.firstEntity);
    this.realSignatures = options.realSignatures ?? true;
    this.random = seededRandom(options.seed);
    this.operator = systemAccount(OPERATOR_ACCOUNT, OPERATOR_NAME, this.keys, OPERATOR_START_BALANCE);
    this.ledger.addAccount(this.operator);
    this.ledger.addAccount(systemAccount(NODE_ACCOUNT, `0.0.${NODE_ACCOUNT}`, this.keys, 0n));
    this.ledger.addAccount(systemAccount(FUNDING_ACCOUNT, `0.0.${FUNDING_ACCOUNT}`, this.keys, 0n));
  }

  /** A deterministic number in [0, 1) from the simulator's seeded generator. */
  nextRandom(): number {
    return this.random();
  }

  /**
   * Runs one step at `consensusNs` (which must exceed the previous step's). Returns the stream items, child
   * records first, and a summary of the step. Throws `ScenarioError` when the step cannot be simulated.
   */
  apply(
    step: StepInput,
    consensusNs: bigint,
    validStartNs?: bigint,
  ): { items: StreamItem[]; summary: StepSummary } {
    const handler = STEP_HANDLERS[step.type];
    if (handler === undefined) throw new ScenarioError(`${step.where}: unknown step type ${step.type}`);
    const { args } = step;
    const { ledger } = this;
    const payer = args.has("payer") ? ledger.account(args.str("payer")) : this.operator;
    const txMemo = args.optStr("txMemo") ?? "";
    const label = args.optStr("label");
    const fail = args.optStr("fail");
    if (fail !== undefined) responseCode(fail);
    const ctx: HandlerContext = { ledger, keys: this.keys, payer, consensusNs };
    const prepared = handler(args, ctx);
    args.done();

    const fx = new Effects(ledger);
    if (fail !== undefined) checkDeclaredFailure(ledger, prepared, fail, step.where);
    else {
      try {
        prepared.execute(fx);
      } catch (error) {
        if (!(error instanceof TxFailure)) throw error;
        throw new ScenarioError(
          `${step.where}: a node would reject this with ${error.message}; add \`fail: ${error.status}\` if that is intended`,
        );
      }
    }
    const children = fx.precedingChildren;
    const feeTinybars = prepared.feeTinybars + children.reduce((sum, c) => sum + c.feeTinybars, 0n);
    chargeFee(fx, payer, feeTinybars, step.where);

    const id = {
      payer: payer.num,
      validStartNs: this.validStart(payer, consensusNs, validStartNs, step.where),
    };

    const items: StreamItem[] = [];
    const childSummaries: NonNullable<StepSummary["children"]> = [];
    for (const [i, child] of children.entries()) {
      const childNs = consensusNs - BigInt(children.length - i);
      const childId = { ...id, nonce: i + 1 };
      const signed = signTransaction({ transactionID: transactionId(childId), ...child.body }, null);
      const record = buildRecord({
        signedTransactionBytes: signed.signedTransactionBytes,
        consensusNs: childNs,
        id: childId,
        memo: child.body.memo ?? "",
        feeTinybars: child.feeTinybars,
        status: "SUCCESS",
        effects: child.effects,
        isCryptoTransfer: false,
      });
      items.push({ consensusNs: childNs, item: recordItem(signed.transactionBytes, record) });
      const childCreated = child.effects.receipt.accountId;
      childSummaries.push({
        consensusTimestamp: formatNs(childNs),
        nonce: i + 1,
        ...(childCreated === undefined ? {} : { entityId: `0.0.${childCreated}` }),
      });
    }

    const body = userBody({
      id,
      maxFeeTinybars: prepared.maxFeeTinybars ?? DEFAULT_MAX_FEE,
      memo: txMemo,
      typed: prepared.body,
    });
    const signers = [payer.key, ...prepared.signers].flatMap((key) => key.signers);
    const signed = signTransaction(body, signers, this.realSignatures);
    const status = fail ?? "SUCCESS";
    const record = buildRecord({
      signedTransactionBytes: signed.signedTransactionBytes,
      consensusNs,
      id,
      memo: txMemo,
      feeTinybars,
      status,
      effects: fx,
      isCryptoTransfer: prepared.isCryptoTransfer === true,
    });
    items.push({ consensusNs, item: recordItem(signed.transactionBytes, record) });

    const created = fx.receipt.tokenId ?? fx.receipt.accountId;
    const summary: StepSummary = {
      index: step.index,
      type: step.type,
      ...(label === undefined ? {} : { label }),
      status,
      consensusTimestamp: formatNs(consensusNs),
      transactionId: formatTransactionId(payer.num, id.validStartNs),
      ...(created === undefined ? {} : { entityId: `0.0.${created}` }),
      ...(fx.receipt.serialNumbers === undefined
        ? {}
        : { serialNumbers: fx.receipt.serialNumbers.map(String) }),
      ...(children.length === 0 ? {} : { children: childSummaries }),
    };
    return { items, summary };
  }

  /**
   * The transaction's valid start: as given, or (as SDKs do) a few seconds before consensus. A payer's
   * transaction ids must be unique.
   */
  private validStart(payer: Account, consensusNs: bigint, given: bigint | undefined, where: string): bigint {
    let validStartNs =
      given ?? consensusNs - 2_000_000_000n - BigInt(Math.floor(this.random() * 3_000_000_000));
    if (given === undefined)
      while (this.usedTransactionIds.has(`${payer.num}/${validStartNs}`)) validStartNs++;
    else if (this.usedTransactionIds.has(`${payer.num}/${validStartNs}`)) {
      throw new ScenarioError(`${where}: duplicate transaction id for ${payer.name}`);
    }
    if (validStartNs >= consensusNs) throw new ScenarioError(`${where}: valid start must precede consensus`);
    this.usedTransactionIds.add(`${payer.num}/${validStartNs}`);
    return validStartNs;
  }
}

/**
 * A step declared to fail changes nothing but the payer's balance. If the simulated ledger would reject it
 * for another reason, the scenario is wrong; a status the simulator does not model (a bad signature, an
 * expired transaction) is taken as given.
 */
function checkDeclaredFailure(ledger: Ledger, prepared: Prepared, fail: string, where: string): void {
  const restore = ledger.snapshot();
  let actual: string | null = null;
  try {
    prepared.execute(new Effects(ledger));
  } catch (error) {
    if (!(error instanceof TxFailure)) throw error;
    actual = error.status;
  } finally {
    restore();
  }
  if (actual !== null && actual !== fail) {
    throw new ScenarioError(
      `${where}: declared to fail with ${fail}, but the ledger rejects it with ${actual}`,
    );
  }
}

/** The payer pays the fee; the node account gets its share and the funding account 0.0.98 the rest. */
function chargeFee(fx: Effects, payer: Account, feeTinybars: bigint, where: string): void {
  if (payer.deleted) throw new ScenarioError(`${where}: the payer ${payer.name} is deleted`);
  if (payer.balance < feeTinybars) {
    throw new ScenarioError(
      `${where}: ${payer.name} cannot pay the ${feeTinybars} tinybar fee (INSUFFICIENT_PAYER_BALANCE)`,
    );
  }
  const node = nodeShare(feeTinybars);
  fx.hbarDelta(payer.num, -feeTinybars);
  fx.hbarDelta(NODE_ACCOUNT, node);
  fx.hbarDelta(FUNDING_ACCOUNT, feeTinybars - node);
}

function systemAccount(num: bigint, name: string, keys: KeyRing, balance: bigint): Account {
  return {
    name,
    num,
    key: keys.resolve(name),
    balance,
    deleted: false,
    memo: "",
    maxAutoAssociations: 0,
    usedAutoAssociations: 0,
    alias: null,
    evmAddress: null,
  };
}

/** A small deterministic generator (xorshift32) seeded from a string; returns values in [0, 1). */
export function seededRandom(seed: string): () => number {
  let state = createHash("sha256").update(seed).digest().readUInt32BE(0) || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}
