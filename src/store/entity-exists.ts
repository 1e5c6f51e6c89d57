import type { Db } from "./db.ts";

/**
 * Whether the mirror node would hold an entity row with this ID, deleted ones included: upstream's
 * `EntityService.isValidAccount` (`select type from entity where id = $1`, any type), which
 * `/accounts/{id}/tokens` and `/rewards` ask before listing.
 *
 * Upstream's importer writes an entity row for every account named in a record's hbar transfer list, not only
 * for created ones: `SqlEntityListener.onCryptoTransfer` upserts a balance-only row (type `UNKNOWN`, the
 * column's default) when `trackBalance` is on, as it is by default. The node accounts, the fee collector and
 * the staking reward account of a stream without a starting state are such rows, so their token and reward
 * lists answer 200 (empty), not 404. mirrorlite keeps no row for them; the transaction index knows every
 * account a record involved (`account_transaction`: payer and hbar or fungible token transfers; the payer of a
 * record always pays its fee in the hbar list, and an account credited only with tokens is an approximation
 * upstream would answer 404 for). One seek on each primary or index key.
 */
export function createEntityExists(db: Db): (id: bigint) => boolean {
  const entity = db.prepare("SELECT 1 FROM entity WHERE id = ? LIMIT 1").pluck();
  const involved = db.prepare("SELECT 1 FROM account_transaction WHERE account_id = ? LIMIT 1").pluck();
  return (id) => entity.get(id) !== undefined || involved.get(id) !== undefined;
}
