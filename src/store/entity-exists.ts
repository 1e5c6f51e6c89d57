import type { Db } from "./db.ts";

/**
 * Whether any version of an entity with this ID is indexed, deleted ones included: upstream's
 * `EntityService.isValidAccount` (`select type from entity where id = $1`), which `/accounts/{id}/tokens` and
 * `/rewards` ask before listing. One seek on the primary key.
 */
export function createEntityExists(db: Db): (id: bigint) => boolean {
  const exists = db.prepare("SELECT 1 FROM entity WHERE id = ? LIMIT 1").pluck();
  return (id) => exists.get(id) !== undefined;
}
