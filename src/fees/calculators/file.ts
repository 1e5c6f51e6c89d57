import { toBigInt } from "../../streams/long.ts";
import { clearFeeResult } from "../fee-result.ts";
import { countAllKeys } from "../key-count.ts";
import { baseOnly, type ServiceCalculator } from "./types.ts";

/** File numbers 1..750 are system files; their updates are free (the payer is a privileged account). */
const LAST_SYSTEM_FILE = 750n;

export const FILE_CALCULATORS: Record<string, ServiceCalculator> = {
  fileCreate: {
    functionality: "FileCreate",
    calculate({ body, fees }) {
      const op = body.fileCreate!;
      fees.setBase(fees.definition.baseFee);
      fees.addExtra("KEYS", countAllKeys(op.keys?.keys ?? []));
      fees.addExtra("STATE_BYTES", BigInt(op.contents?.length ?? 0));
    },
  },
  fileUpdate: {
    functionality: "FileUpdate",
    calculate({ body, fees, state, result }) {
      const op = body.fileUpdate!;
      fees.setBase(fees.definition.baseFee);
      fees.addExtra("KEYS", countAllKeys(op.keys?.keys ?? []));
      fees.addExtra("STATE_BYTES", BigInt(op.contents?.length ?? 0));
      if (state !== null) {
        const fileNum = toBigInt(op.fileID?.fileNum);
        if (fileNum >= 1n && fileNum <= LAST_SYSTEM_FILE) clearFeeResult(result);
      }
    },
  },
  fileAppend: {
    functionality: "FileAppend",
    calculate({ body, fees }) {
      fees.setBase(fees.definition.baseFee);
      fees.addExtra("STATE_BYTES", BigInt(body.fileAppend!.contents?.length ?? 0));
    },
  },
  fileDelete: baseOnly("FileDelete"),
};
