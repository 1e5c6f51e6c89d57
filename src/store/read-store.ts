import { type BalanceQueries, createBalanceQueries } from "./balances.ts";
import { type BlockQueries, createBlockQueries } from "./blocks.ts";
import type { Db } from "./db.ts";
import { createHbarQueries, type HbarQueries } from "./hbar-balances.ts";
import { createNetworkQueries, type NetworkQueries } from "./network.ts";
import { createNftQueries, type NftQueries } from "./nfts.ts";
import { createSystemFileQueries, type SystemFileQueries } from "./system-files.ts";
import { createTokenListQueries, type TokenListQueries } from "./token-lists.ts";
import { createTokenQueries, type TokenQueries } from "./tokens.ts";

/** Every read query the API uses, prepared once on the read-only connection. */
export type ReadStore = {
  db: Db;
  tokens: TokenQueries;
  blocks: BlockQueries;
  tokenLists: TokenListQueries;
  balances: BalanceQueries;
  nfts: NftQueries;
  hbar: HbarQueries;
  systemFiles: SystemFileQueries;
  network: NetworkQueries;
};

export function createReadStore(db: Db): ReadStore {
  return {
    db,
    tokens: createTokenQueries(db),
    blocks: createBlockQueries(db),
    tokenLists: createTokenListQueries(db),
    balances: createBalanceQueries(db),
    nfts: createNftQueries(db),
    hbar: createHbarQueries(db),
    systemFiles: createSystemFileQueries(db),
    network: createNetworkQueries(db),
  };
}
