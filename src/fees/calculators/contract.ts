import { countKeys } from "../key-count.ts";
import { baseOnly, type ServiceCalculator } from "./types.ts";

/**
 * Smart-contract service calculators. ContractCall's schedule entry is node/network-exempt and has base 0 (its
 * gas is paid separately); Ethereum transactions pay node and network only. Gas is not estimated.
 */
export const CONTRACT_CALCULATORS: Record<string, ServiceCalculator> = {
  contractCall: baseOnly("ContractCall"),
  contractCreateInstance: {
    functionality: "ContractCreate",
    calculate({ body, fees }) {
      const op = body.contractCreateInstance!;
      fees.setBase(fees.definition.baseFee);
      fees.addExtra("KEYS", countKeys(op.adminKey));
      const hooks = BigInt(op.hookCreationDetails?.length ?? 0);
      if (hooks > 0n) fees.addExtra("HOOK_UPDATES", hooks);
    },
  },
  contractUpdateInstance: {
    functionality: "ContractUpdate",
    calculate({ body, fees }) {
      const op = body.contractUpdateInstance!;
      fees.setBase(fees.definition.baseFee);
      fees.addExtra("KEYS", countKeys(op.adminKey));
      // Unlike CryptoUpdate, creations and deletions are two separate HOOK_UPDATES entries.
      const created = BigInt(op.hookCreationDetails?.length ?? 0);
      if (created > 0n) fees.addExtra("HOOK_UPDATES", created);
      const deleted = BigInt(op.hookIdsToDelete?.length ?? 0);
      if (deleted > 0n) fees.addExtra("HOOK_UPDATES", deleted);
    },
  },
  contractDeleteInstance: baseOnly("ContractDelete"),
  ethereumTransaction: baseOnly("EthereumTransaction"),
};
