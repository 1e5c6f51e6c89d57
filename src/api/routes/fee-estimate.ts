import type { IncomingMessage, ServerResponse } from "node:http";
import { FeeEstimateError } from "../../fees/errors.ts";
import { estimateFees } from "../../fees/estimate.ts";
import type { Logger } from "../../log.ts";
import { createFeeFactQueries } from "../../store/fee-facts.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { createFeeScheduleSource, type FeeScheduleSource } from "../fee-schedule-source.ts";
import {
  JAVA_JSON_TYPE,
  JavaHttpError,
  javaBadRequest,
  javaError,
  javaErrorBody,
  parseJavaQuery,
} from "../java/index.ts";
import { toJson } from "../json.ts";
import { readFeeEstimateParams } from "../params/fee-estimate.ts";
import { BodyTooLargeError, readBody } from "../read-body.ts";
import { feeEstimateView } from "../views/fee-estimate.ts";
import type { PostHandler } from "./route-table.ts";

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
 * rest-java body; nothing a client sends reaches a 500. Written against plain `node:http` request and
 * response: the front hands it the POSTs of `/api/v1/network/fees` (see `networkRoutes`).
 */
export function createFeeEstimateHandler({ store, log, generation, schedule }: FeeEstimateDeps): PostHandler {
  const facts = createFeeFactQueries(store.db);
  const currentSchedule = schedule ?? createFeeScheduleSource(store, generation);

  async function estimate(req: IncomingMessage, res: ServerResponse): Promise<string> {
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
      if (!(error instanceof BodyTooLargeError)) throw javaBadRequest("Failed to read request");
      res.setHeader("Connection", "close");
      throw javaError(413, `Request body exceeds ${FEE_ESTIMATE_BODY_LIMIT} bytes`);
    }
    if (body.length === 0) throw javaBadRequest("Failed to read request");
    const { mode, highVolumeThrottle } = readFeeEstimateParams(parseJavaQuery(req.url ?? ""));
    try {
      const result = estimateFees(body, {
        mode,
        highVolumeThrottle,
        schedule: currentSchedule(),
        state: facts,
      });
      return toJson(feeEstimateView(result));
    } catch (error) {
      if (error instanceof FeeEstimateError) throw javaBadRequest(error.message);
      // Stack exhaustion on hostile nesting outside the decoder: still the client's input, not a server fault.
      if (error instanceof RangeError) throw javaBadRequest("Unable to parse transaction");
      throw error;
    }
  }

  return async (req, res) => {
    let status = 200;
    let text: string;
    const headers: Record<string, string> = {
      "Access-Control-Allow-Origin": "*",
      "Content-Type": JAVA_JSON_TYPE,
    };
    try {
      text = await estimate(req, res);
    } catch (error) {
      let javaHttpError: JavaHttpError;
      if (error instanceof JavaHttpError) javaHttpError = error;
      else {
        const code = String((error as { code?: unknown })?.code ?? "");
        const busy = code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
        log[busy ? "warn" : "error"](
          { err: error, url: req.url },
          busy ? "database busy" : "fee estimate failed",
        );
        javaHttpError = javaError(busy ? 503 : 500, "");
      }
      status = javaHttpError.status;
      text = javaErrorBody(javaHttpError.messages);
      headers["Content-Type"] = "application/json";
      Object.assign(headers, javaHttpError.headers);
    }
    res.writeHead(status, headers);
    res.end(text);
  };
}
