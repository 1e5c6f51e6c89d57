import { countKeys } from "../key-count.ts";
import { baseOnly, type ServiceCalculator } from "./types.ts";

/** Crypto service calculators other than transfers (crypto-transfer.ts). */
export const CRYPTO_CALCULATORS: Record<string, ServiceCalculator> = {
  cryptoCreateAccount: {
    functionality: "CryptoCreate",
    calculate({ body, fees }) {
      const op = body.cryptoCreateAccount!;
      fees.setBase(fees.definition.baseFee);
      if (op.key != null) fees.addExtra("KEYS", countKeys(op.key));
      const hooks = BigInt(op.hookCreationDetails?.length ?? 0);
      if (hooks > 0n) fees.addExtra("HOOK_UPDATES", hooks);
    },
  },
  cryptoUpdateAccount: {
    functionality: "CryptoUpdate",
    calculate({ body, fees }) {
      const op = body.cryptoUpdateAccount!;
      fees.setBase(fees.definition.baseFee);
      if (op.key != null) fees.addExtra("KEYS", countKeys(op.key));
      // Creations and deletions are one HOOK_UPDATES entry here (ContractUpdate lists them separately).
      const hooks = BigInt((op.hookCreationDetails?.length ?? 0) + (op.hookIdsToDelete?.length ?? 0));
      if (hooks > 0n) fees.addExtra("HOOK_UPDATES", hooks);
    },
  },
  cryptoDelete: baseOnly("CryptoDelete"),
  cryptoApproveAllowance: {
    functionality: "CryptoApproveAllowance",
    calculate({ body, fees }) {
      const op = body.cryptoApproveAllowance!;
      fees.setBase(fees.definition.baseFee);
      const allowances = BigInt(
        (op.cryptoAllowances?.length ?? 0) +
          (op.tokenAllowances?.length ?? 0) +
          (op.nftAllowances?.length ?? 0),
      );
      if (allowances > 0n) fees.addExtra("ALLOWANCES", allowances);
    },
  },
  cryptoDeleteAllowance: {
    functionality: "CryptoDeleteAllowance",
    calculate({ body, fees }) {
      const op = body.cryptoDeleteAllowance!;
      fees.setBase(fees.definition.baseFee);
      // Entries, not serials.
      const allowances = BigInt(op.nftAllowances?.length ?? 0);
      if (allowances > 0n) fees.addExtra("ALLOWANCES", allowances);
    },
  },
};
