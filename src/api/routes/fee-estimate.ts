import { Router } from "express";
import { FeeEstimateError } from "../../fees/errors.ts";
import { estimateFees } from "../../fees/estimate.ts";
import type { Logger } from "../../log.ts";
import { createFeeFactQueries } from "../../store/fee-facts.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { createFeeScheduleSource, type FeeScheduleSource } from "../fee-schedule-source.ts";
import {
  JAVA_JSON_TYPE,
  javaBadRequest,
  javaError,
  javaErrorHandler,
  parseJavaQuery,
} from "../java/index.ts";
import { toJson } from "../json.ts";
import { readFeeEstimateParams } from "../params/fee-estimate.ts";
import { BodyTooLargeError, readBody } from "../read-body.ts";
import { feeEstimateView } from "../views/fee-estimate.ts";

/**
 * The largest body accepted, in bytes. A legal transaction is at most 6 KiB; 128 KiB leaves room for any of them
 * (and a batch of them) while bounding what a request can make the server hold.
 */
export const FEE_ESTIMATE_BODY_LIMIT = 128 * 1024;

const PROTOBUF_TYPES = new Set(["application/protobuf", "application/x-protobuf"]);

export type FeeEstimateDeps = {
  store: ReadStore;
  log: Logger;
  /** The last applied block: when it changes, 0.0.113 is looked up again. */
  generation: () => bigint | null;
  /** Defaults to 0.0.113 as indexed (the genesis schedule until the stream writes one). */
  schedule?: FeeScheduleSource;
};

/**
 * `POST /api/v1/network/fees` (fees.md): estimates the simple fees of a protobuf `Transaction` body, from the
 * transaction alone (`mode=INTRINSIC`) or with the index's tokens and topics (`mode=STATE`). Errors use the
 * rest-java body; nothing a client sends reaches a 500. GET on the same path is the network router's.
 */
export function feeEstimateRoutes({ store, log, generation, schedule }: FeeEstimateDeps): Router {
  const router = Router();
  const facts = createFeeFactQueries(store.db);
  const currentSchedule = schedule ?? createFeeScheduleSource(store, generation);

  router.post("/api/v1/network/fees", async (req, res) => {
    const contentType = req.headers["content-type"]?.trim() || "application/octet-stream";
    const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
    if (!PROTOBUF_TYPES.has(mediaType)) {
      // Nothing of the body is needed: do not keep the connection reading it.
      res.set("Connection", "close");
      throw javaError(415, `Content-Type '${contentType}' is not supported`);
    }
    let body: Buffer;
    try {
      body = await readBody(req, FEE_ESTIMATE_BODY_LIMIT);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw javaBadRequest("Failed to read request");
      res.set("Connection", "close");
      throw javaError(413, `Request body exceeds ${FEE_ESTIMATE_BODY_LIMIT} bytes`);
    }
    if (body.length === 0) throw javaBadRequest("Failed to read request");
    const { mode, highVolumeThrottle } = readFeeEstimateParams(parseJavaQuery(req.originalUrl));
    let text: string;
    try {
      const result = estimateFees(body, {
        mode,
        highVolumeThrottle,
        schedule: currentSchedule(),
        state: facts,
      });
      text = toJson(feeEstimateView(result));
    } catch (error) {
      if (error instanceof FeeEstimateError) throw javaBadRequest(error.message);
      // Stack exhaustion on hostile nesting outside the decoder: still the client's input, not a server fault.
      if (error instanceof RangeError) throw javaBadRequest("Unable to parse transaction");
      throw error;
    }
    // Written directly: Express would rewrite the type as `application/json; charset=utf-8`.
    res.status(200).setHeader("Content-Type", JAVA_JSON_TYPE);
    res.end(text);
  });
  router.use("/api/v1/network/fees", javaErrorHandler(log));
  return router;
}
