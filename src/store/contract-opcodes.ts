/**
 * The lookup `GET /contracts/results/{id}/opcodes` makes by transaction id, as upstream's web3 makes it: the
 * earliest transaction with this payer and valid start whose consensus time is within 35 minutes of the valid
 * start, whatever its nonce (one seek on `transaction_id`).
 */
import type { Db } from "./db.ts";

const TRANSACTION_RANGE_NS = 35n * 60n * 1_000_000_000n;
const MAX_INT64 = (1n << 63n) - 1n;

/** A transaction's consensus time and HAPI type. */
export type OpcodesTransactionRef = { consensusNs: bigint; type: number };

export type ContractOpcodesQueries = {
  firstTransactionById(payerId: bigint, validStartNs: bigint): OpcodesTransactionRef | undefined;
};

export function createContractOpcodesQueries(db: Db): ContractOpcodesQueries {
  const first = db.prepare<[bigint, bigint, bigint, bigint], { consensus_ns: bigint; type: bigint }>(
    `SELECT consensus_ns, type FROM "transaction" WHERE valid_start_ns = ? AND payer_id = ?
       AND consensus_ns >= ? AND consensus_ns <= ? ORDER BY consensus_ns LIMIT 1`,
  );
  return {
    firstTransactionById(payerId, validStartNs) {
      if (validStartNs < 0n) return undefined;
      const end = validStartNs + TRANSACTION_RANGE_NS;
      const row = first.get(validStartNs, payerId, validStartNs, end > MAX_INT64 ? MAX_INT64 : end);
      return row === undefined ? undefined : { consensusNs: row.consensus_ns, type: Number(row.type) };
    },
  };
}
