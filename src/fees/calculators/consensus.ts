import { toBigInt } from "../../streams/long.ts";
import { unknownTransactionType } from "../errors.ts";
import { countAllKeys } from "../key-count.ts";
import { baseOnly, type ServiceCalculator } from "./types.ts";

export const CONSENSUS_CALCULATORS: Record<string, ServiceCalculator> = {
  consensusCreateTopic: {
    functionality: "ConsensusCreateTopic",
    calculate({ body, fees }) {
      const op = body.consensusCreateTopic!;
      fees.setBase(fees.definition.baseFee);
      // Fee-exempt keys are not counted at creation (they are on update).
      fees.addExtra("KEYS", countAllKeys([op.adminKey, op.feeScheduleKey, op.submitKey]));
      if ((op.customFees?.length ?? 0) > 0) fees.addExtra("CONSENSUS_CREATE_TOPIC_WITH_CUSTOM_FEE", 1n);
    },
  },
  consensusUpdateTopic: {
    functionality: "ConsensusUpdateTopic",
    calculate({ body, fees }) {
      const op = body.consensusUpdateTopic!;
      fees.setBase(fees.definition.baseFee);
      const keys = [op.adminKey, op.feeScheduleKey, op.submitKey, ...(op.feeExemptKeyList?.keys ?? [])];
      fees.addExtra("KEYS", countAllKeys(keys));
    },
  },
  consensusDeleteTopic: baseOnly("ConsensusDeleteTopic"),
  consensusSubmitMessage: {
    functionality: "ConsensusSubmitMessage",
    calculate({ body, fees, state }) {
      const op = body.consensusSubmitMessage!;
      fees.setBase(fees.definition.baseFee);
      const messageBytes = BigInt(op.message?.length ?? 0);
      let withCustomFees = false;
      if (state !== null) {
        if (op.topicID == null) throw unknownTransactionType();
        withCustomFees = state.topicHasFixedFees(toBigInt(op.topicID.topicNum));
      }
      if (withCustomFees) {
        fees.addExtra("CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE", 1n);
        fees.addExtra("CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE_BYTES", messageBytes);
      } else {
        fees.addExtra("CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES", messageBytes);
      }
    },
  },
};
