import { CONSENSUS_CALCULATORS } from "./consensus.ts";
import { CONTRACT_CALCULATORS } from "./contract.ts";
import { CRYPTO_CALCULATORS } from "./crypto.ts";
import { TRANSFER_CALCULATORS } from "./crypto-transfer.ts";
import { FILE_CALCULATORS } from "./file.ts";
import { HOOK_CALCULATORS } from "./hooks.ts";
import { NETWORK_CALCULATORS } from "./network.ts";
import { SCHEDULE_CALCULATORS } from "./schedule.ts";
import { TOKEN_CALCULATORS } from "./token.ts";
import type { ServiceCalculator } from "./types.ts";

/**
 * Service calculators by `TransactionBody` oneof case. A body case missing here (freeze, uncheckedSubmit, live
 * hashes, node stake updates, state-signature and TSS bodies) has no calculator: `Unknown transaction type`.
 */
export const CALCULATORS: ReadonlyMap<string, ServiceCalculator> = new Map(
  Object.entries({
    ...CRYPTO_CALCULATORS,
    ...TRANSFER_CALCULATORS,
    ...CONSENSUS_CALCULATORS,
    ...FILE_CALCULATORS,
    ...TOKEN_CALCULATORS,
    ...SCHEDULE_CALCULATORS,
    ...CONTRACT_CALCULATORS,
    ...HOOK_CALCULATORS,
    ...NETWORK_CALCULATORS,
  }),
);
