import { unknownTransactionType } from "../errors.ts";
import { countKeys } from "../key-count.ts";
import { baseOnly, type ServiceCalculator } from "./types.ts";

export const SCHEDULE_CALCULATORS: Record<string, ServiceCalculator> = {
  scheduleCreate: {
    functionality: "ScheduleCreate",
    calculate({ body, fees }) {
      const op = body.scheduleCreate!;
      // The Java calculator dereferences the scheduled body: one without it is refused.
      if (op.scheduledTransactionBody == null) throw unknownTransactionType();
      fees.setBase(fees.definition.baseFee);
      fees.addExtra("KEYS", countKeys(op.adminKey));
      if (op.scheduledTransactionBody.contractCall != null) {
        fees.addExtra("SCHEDULE_CREATE_CONTRACT_CALL_BASE", 1n);
      }
    },
  },
  scheduleSign: baseOnly("ScheduleSign"),
  scheduleDelete: baseOnly("ScheduleDelete"),
};
