/**
 * Runs a scenario through the ledger simulator: for each step it picks the consensus time, lets the step's
 * handler build and apply the transaction, charges the network fee, signs the transaction with the payer's
 * and the required keys, and builds the record (plus preceding child records, e.g. for auto-created
 * accounts). The output is the ordered record stream items, grouped per user transaction, and a summary of
 * the final ledger for tests.
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
import { Effects } from "./effects.ts";
import { KeyRing } from "./keys.ts";
import { type Account, Ledger, ScenarioError, TxFailure } from "./ledger.ts";
import { DEFAULT_MAX_FEE, FUNDING_ACCOUNT, NODE_ACCOUNT, nodeShare } from "./network-fees.ts";
import { formatNs, formatTransactionId } from "./pb.ts";
import type { Scenario, ScenarioSettings } from "./scenario-file.ts";
import type { HandlerContext, Prepared, StepHandler } from "./step.ts";
import { type LedgerSummary, type StepSummary, summarizeLedger } from "./summary.ts";
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

export const OPERATOR_NAME = "operator";
/** The operator pays by default; like a network's treasury 0.0.2 it starts with (nearly) all the hbar. */
export const OPERATOR_ACCOUNT = 2n;
const OPERATOR_START_BALANCE = 5_000_000_000n * 100_000_000n;

export type StreamItem = { consensusNs: bigint; item: RecordItem };

export type ScenarioRun = {
  settings: ScenarioSettings;
  /** One group per user transaction: its preceding children, then itself, in consensus order. */
  groups: StreamItem[][];
  summary: LedgerSummary;
};

/** Simulates every step of a scenario. Throws `ScenarioError` when a step cannot be simulated as written. */
export function runScenario(scenario: Scenario): ScenarioRun {
  const { settings } = scenario;
  const keys = new KeyRing(settings.seed);
  const ledger = new Ledger(settings.firstEntity);
  const operator = systemAccount(OPERATOR_ACCOUNT, OPERATOR_NAME, keys, OPERATOR_START_BALANCE);
  ledger.addAccount(operator);
  ledger.addAccount(systemAccount(NODE_ACCOUNT, `0.0.${NODE_ACCOUNT}`, keys, 0n));
  ledger.addAccount(systemAccount(FUNDING_ACCOUNT, `0.0.${FUNDING_ACCOUNT}`, keys, 0n));

  const random = seededRandom(settings.seed);
  const usedTransactionIds = new Set<string>();
  const groups: StreamItem[][] = [];
  const steps: StepSummary[] = [];
  let clockNs = settings.startNs - settings.spacingNs;

  for (const [index, step] of scenario.steps.entries()) {
    if (step.kind === "wait") {
      clockNs += step.waitNs;
      continue;
    }
    const handler = STEP_HANDLERS[step.type];
    if (handler === undefined) throw new ScenarioError(`${step.where}: unknown step type ${step.type}`);
    const args = step.args;
    // Jitter keeps nanoseconds irregular, as real consensus times are, while staying in order.
    clockNs += settings.spacingNs + BigInt(Math.floor(random() * Number(settings.spacingNs / 4n)));
    const consensusNs = clockNs;
    const payer = args.has("payer") ? ledger.account(args.str("payer")) : operator;
    const txMemo = args.optStr("txMemo") ?? "";
    const label = args.optStr("label");
    const fail = args.optStr("fail");
    if (fail !== undefined) responseCode(fail);
    const ctx: HandlerContext = { ledger, keys, payer, consensusNs };
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

    // SDKs start a transaction's validity a few seconds before it reaches consensus.
    let validStartNs = consensusNs - 2_000_000_000n - BigInt(Math.floor(random() * 3_000_000_000));
    while (usedTransactionIds.has(`${payer.num}/${validStartNs}`)) validStartNs++;
    usedTransactionIds.add(`${payer.num}/${validStartNs}`);
    const id = { payer: payer.num, validStartNs };

    const group: StreamItem[] = [];
    const childSummaries: NonNullable<StepSummary["children"]> = [];
    for (const [i, child] of children.entries()) {
      const childNs = consensusNs - BigInt(children.length - i);
      const childId = { ...id, nonce: i + 1 };
      const body = { transactionID: transactionId(childId), ...child.body };
      const signed = signTransaction(body, null);
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
      group.push({ consensusNs: childNs, item: recordItem(signed.transactionBytes, record) });
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
    const signed = signTransaction(body, signers);
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
    group.push({ consensusNs, item: recordItem(signed.transactionBytes, record) });
    groups.push(group);

    const created = fx.receipt.tokenId ?? fx.receipt.accountId;
    steps.push({
      index,
      type: step.type,
      ...(label === undefined ? {} : { label }),
      status,
      consensusTimestamp: formatNs(consensusNs),
      transactionId: formatTransactionId(payer.num, validStartNs),
      ...(created === undefined ? {} : { entityId: `0.0.${created}` }),
      ...(fx.receipt.serialNumbers === undefined
        ? {}
        : { serialNumbers: fx.receipt.serialNumbers.map(String) }),
      ...(children.length === 0 ? {} : { children: childSummaries }),
    });
  }
  return { settings, groups, summary: summarizeLedger(settings, ledger, steps) };
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

/** A small deterministic generator (xorshift32) seeded from the scenario seed; returns values in [0, 1). */
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
