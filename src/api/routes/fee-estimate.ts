import { Router } from "express";
import { FeeEstimateError } from "../../fees/errors.ts";
import { estimateFees } from "../../fees/estimate.ts";
import type { Logger } from "../../log.ts";
import { createFeeFactQueries } from "../../store/fee-facts.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { createFeeScheduleSource, type FeeScheduleSource } from "../fee-schedule-source.ts";
import { sendJavaError } from "../java-errors.ts";
import { toJson } from "../json.ts";
import { FeeEstimateParamError, parseFeeEstimateParams } from "../params/fee-estimate.ts";
import { BodyTooLargeError, readBody } from "../read-body.ts";
import { feeEstimateView } from "../views/fee-estimate.ts";

/**
 * The largest body accepted, in bytes. A legal transaction is at most 6 KiB (a batch of them more); 128 KiB leaves
 * room for any of them while bounding what a request can make the server hold.
 */
export const FEE_ESTIMATE_BODY_LIMIT = 128 * 1024;

const PROTOBUF_TYPES = new Set(["application/protobuf", "application/x-protobuf"]);

export type FeeEstimateDeps = {
  store: ReadStore;
  log: Logger;
  /** Defaults to 0.0.113 as indexed (genesis schedule until the stream writes one). */
  schedule?: FeeScheduleSource;
};

/**
 * `POST /api/v1/network/fees` (fees.md): estimates the simple fees of a protobuf `Transaction` body, from the
 * transaction alone (`mode=INTRINSIC`) or with the index's tokens and topics (`mode=STATE`). Errors use the
 * rest-java body; nothing a client sends reaches a 500.
 */
export function feeEstimateRoutes({ store, log, schedule }: FeeEstimateDeps): Router {
  const router = Router();
  const facts = createFeeFactQueries(store.db);
  const currentSchedule = schedule ?? createFeeScheduleSource(store);

  router.post("/api/v1/network/fees", async (req, res) => {
    const contentType = req.headers["content-type"]?.trim() || "application/octet-stream";
    const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
    if (!PROTOBUF_TYPES.has(mediaType)) {
      // Nothing of the body is needed: do not keep the connection reading it.
      res.set("Connection", "close");
      return sendJavaError(res, 415, `Content-Type '${contentType}' is not supported`);
    }
    let body: Buffer;
    try {
      body = await readBody(req, FEE_ESTIMATE_BODY_LIMIT);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        res.set("Connection", "close");
        return sendJavaError(res, 413, `Request body exceeds ${FEE_ESTIMATE_BODY_LIMIT} bytes`);
      }
      log.warn({ err: error, url: req.originalUrl }, "fee estimate body not read");
      return sendJavaError(res, 400, "Failed to read request");
    }
    if (body.length === 0) return sendJavaError(res, 400, "Failed to read request");
    try {
      const { mode, highVolumeThrottle } = parseFeeEstimateParams(req.query as Record<string, unknown>);
      const result = estimateFees(body, {
        mode,
        highVolumeThrottle,
        schedule: currentSchedule(),
        state: facts,
      });
      // Written directly: Express would rewrite the type as `application/json; charset=utf-8`.
      res.status(200).setHeader("Content-Type", "application/json;charset=UTF-8");
      res.end(toJson(feeEstimateView(result)));
    } catch (error) {
      if (error instanceof FeeEstimateParamError || error instanceof FeeEstimateError) {
        return sendJavaError(res, 400, error.message);
      }
      if (error instanceof RangeError) {
        // Stack exhaustion or an out-of-range read on hostile bytes outside the decoder: still the client's input.
        return sendJavaError(res, 400, "Unable to parse transaction");
      }
      const code = String((error as { code?: unknown })?.code ?? "");
      if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
        log.warn({ err: error, url: req.originalUrl }, "database busy");
        return sendJavaError(res, 503, "");
      }
      log.error({ err: error, url: req.originalUrl }, "fee estimate failed");
      return sendJavaError(res, 500, "");
    }
  });
  return router;
}
