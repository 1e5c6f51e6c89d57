import { FeeEstimateError } from "../../fees/errors.ts";
import { estimateFees } from "../../fees/estimate.ts";
import { createFeeScheduleSource, type FeeScheduleSource } from "../fee-schedule-source.ts";
import { javaBadRequest, javaError, parseJavaQuery } from "../java/index.ts";
import { toJson } from "../json.ts";
import { type FeeEstimateParams, readFeeEstimateParams } from "../params/fee-estimate.ts";
import { BodyBudgetError, BodyTooLargeError, readBody } from "../read-body.ts";
import { feeEstimateView } from "../views/fee-estimate.ts";
import { definePost, javaAnswer, type PostStep } from "./route-table.ts";

/**
 * The largest body accepted, in bytes. A legal transaction is at most 6 KiB; 128 KiB leaves room for any of them
 * (and a batch of them) while bounding what a request can make the server hold.
 */
export const FEE_ESTIMATE_BODY_LIMIT = 128 * 1024;

const PROTOBUF_TYPES = new Set(["application/protobuf", "application/x-protobuf"]);

/** `parse`'s value: the body and the parameters. */
type FeeEstimateQuery = FeeEstimateParams & { body: Uint8Array };

/**
 * `POST /api/v1/network/fees` (fees.md): estimates the simple fees of a protobuf `Transaction` body, from the
 * transaction alone (`mode=INTRINSIC`) or with the index's tokens and topics (`mode=STATE`). Errors use the
 * rest-java body; nothing a client sends reaches a 500. The front checks the content type and reads the body
 * (at most `FEE_ESTIMATE_BODY_LIMIT` bytes); the estimate runs where the index is read, like every GET.
 * `schedule` defaults to 0.0.113 as indexed (the genesis schedule until the stream writes one).
 */
export function feeEstimatePost(schedule: FeeScheduleSource = createFeeScheduleSource()): PostStep {
  return definePost<FeeEstimateQuery>({
    async parse(req, res, { url }) {
      const contentType = req.headers["content-type"]?.trim() || "application/octet-stream";
      const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
      if (!PROTOBUF_TYPES.has(mediaType)) {
        // Nothing of the body is needed: do not keep the connection reading it.
        res.setHeader("Connection", "close");
        throw javaError(415, `Content-Type '${contentType}' is not supported`);
      }
      let body: Buffer;
      try {
        body = await readBody(req, FEE_ESTIMATE_BODY_LIMIT);
      } catch (error) {
        if (error instanceof BodyBudgetError) {
          // The front holds as many bodies as it allows at once: refused at once, without reading this one.
          res.setHeader("Connection", "close");
          throw javaError(503, "Service Unavailable");
        }
        if (!(error instanceof BodyTooLargeError)) throw javaBadRequest("Failed to read request");
        res.setHeader("Connection", "close");
        throw javaError(413, `Request body exceeds ${FEE_ESTIMATE_BODY_LIMIT} bytes`);
      }
      if (body.length === 0) throw javaBadRequest("Failed to read request");
      return { ...readFeeEstimateParams(parseJavaQuery(url)), body };
    },
    answer(store, { body, mode, highVolumeThrottle }) {
      const inForce = schedule(store);
      try {
        const result = estimateFees(body, {
          mode,
          highVolumeThrottle,
          schedule: inForce,
          state: store.feeFacts,
        });
        return javaAnswer(toJson(feeEstimateView(result)));
      } catch (error) {
        if (error instanceof FeeEstimateError) throw javaBadRequest(error.message);
        // Stack exhaustion on hostile nesting outside the decoder: still the client's input, not a server fault.
        if (error instanceof RangeError) throw javaBadRequest("Unable to parse transaction");
        throw error;
      }
    },
  });
}
