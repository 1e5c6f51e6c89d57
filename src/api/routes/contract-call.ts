import { DEFAULT_CHAIN_ID } from "../../evm/chain.ts";
import {
  type BlockValues,
  type CallInput,
  type CallOutcome,
  estimateGas,
  executeCall,
} from "../../evm/execute.ts";
import { revertReason } from "../../evm/revert.ts";
import { createStateView } from "../../evm/state-view.ts";
import { createEvmStateQueries, type EvmBlockRow, type EvmStateQueries } from "../../store/evm-state.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { JavaHttpError, javaMethodNotAllowed } from "../java/index.ts";
import { toJson } from "../json.ts";
import { BodyTooLargeError, readBody } from "../read-body.ts";
import { type BlockSpec, type ContractCallRequest, readContractCallRequest } from "../web3/call-request.ts";
import { web3Error, web3ExecutionError } from "../web3/errors.ts";
import { definePost, defineRoute, javaAnswer, type RouteDef } from "./route-table.ts";

/**
 * The largest body accepted: `data` at its limit (1,048,576 hex digits) plus the other fields, with room to spare.
 * Bounds what a request can make the server hold before anything is checked.
 */
export const CONTRACT_CALL_BODY_LIMIT = 1_100_000;

const JSON_TYPES = new Set(["application/json"]);

/** Each thread's store gets its prepared EVM reads once. */
const queriesByStore = new WeakMap<ReadStore, EvmStateQueries>();
function evmQueries(store: ReadStore): EvmStateQueries {
  let queries = queriesByStore.get(store);
  if (queries === undefined) {
    queries = createEvmStateQueries(store.db);
    queriesByStore.set(store, queries);
  }
  return queries;
}

function resolveBlock(queries: EvmStateQueries, store: ReadStore, spec: BlockSpec): EvmBlockRow {
  let block: EvmBlockRow | undefined;
  if (spec.kind === "latest") block = queries.latestBlock();
  else if (spec.kind === "earliest") block = queries.earliestBlock();
  else if (spec.kind === "number") block = queries.block(spec.number);
  else {
    const row = store.blocks.getBlockByHashPrefix(spec.hash);
    block = row === undefined ? undefined : queries.block(row.number);
  }
  if (block === undefined) {
    throw web3Error(400, spec.kind === "hash" ? "Unknown block hash" : "Unknown block number");
  }
  return block;
}

const hexBytes = (hex: string) => Uint8Array.from(Buffer.from(hex, "hex"));
const prefixed = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;

function blockValues(block: EvmBlockRow): BlockValues {
  return {
    number: block.number,
    timestamp: block.consensusStart / 1_000_000_000n,
    // Upstream's web3 state sets the n-3 running hash to the hash of the block asked; PREVRANDAO and the PRNG
    // system contract's seed are its first 32 bytes.
    prevRandao: hexBytes(block.hash.slice(0, 64).padEnd(64, "0")),
  };
}

function callInput(request: ContractCallRequest): CallInput {
  const to = request.to === null ? null : hexBytes(request.to);
  return {
    data: hexBytes(request.data),
    from: request.from === null ? new Uint8Array(20) : hexBytes(request.from),
    // Upstream turns an absent or empty `to` into the zero address, which is a contract creation.
    to: to === null || to.every((byte) => byte === 0) ? null : to,
    gas: request.gas,
    gasPrice: request.gasPrice,
    value: request.value,
  };
}

function answerOutcome(outcome: CallOutcome, estimate: boolean) {
  switch (outcome.kind) {
    case "success": {
      const result = estimate ? `0x${outcome.gasUsed.toString(16)}` : prefixed(outcome.output);
      return javaAnswer(toJson({ result }));
    }
    case "failure":
      throw web3ExecutionError(
        outcome.status,
        revertReason(outcome.revertData),
        prefixed(outcome.revertData),
      );
    case "unsupported":
      throw web3Error(501, `Precompile not supported: ${outcome.address}`);
  }
}

/** Runs `work` in one read transaction, held across the EVM's awaits (the worker runs one job at a time). */
async function inSnapshot<T>(store: ReadStore, work: () => Promise<T>): Promise<T> {
  const own = !store.db.inTransaction;
  if (own) store.db.exec("BEGIN");
  try {
    return await work();
  } finally {
    if (own) store.db.exec("COMMIT");
  }
}

/**
 * `POST /api/v1/contracts/call` (issue 28; upstream's web3 `ContractController`): executes the call, or estimates
 * its gas, against the ledger as of the end of the block asked, with @ethereumjs/evm over the index. The front
 * checks the content type, reads the body (bounded) and validates it; a read worker runs the EVM (a call that runs
 * past `--query-timeout-ms` costs that worker, as any query does). Other methods answer 405.
 */
export function contractCallRoutes(chainId: bigint = DEFAULT_CHAIN_ID): RouteDef[] {
  return [
    defineRoute<null>({
      template: "/api/v1/contracts/call",
      caching: "none",
      maxAge: 0,
      style: "java",
      parse: () => {
        throw javaMethodNotAllowed("GET", ["POST"]);
      },
      answer: () => {
        throw new Error("unreachable: GET is refused in parse");
      },
      post: definePost<ContractCallRequest>({
        async parse(req, res) {
          const contentType = req.headers["content-type"]?.trim() || "application/octet-stream";
          const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
          if (!JSON_TYPES.has(mediaType)) {
            res.setHeader("Connection", "close");
            throw web3Error(415, `Content-Type '${contentType}' is not supported`);
          }
          let body: Buffer;
          try {
            body = await readBody(req, CONTRACT_CALL_BODY_LIMIT);
          } catch (error) {
            if (!(error instanceof BodyTooLargeError)) throw web3Error(400, "Failed to read request");
            res.setHeader("Connection", "close");
            throw web3Error(413, `Request body exceeds ${CONTRACT_CALL_BODY_LIMIT} bytes`);
          }
          return readContractCallRequest(body.toString("utf8"));
        },
        async answer(store, request) {
          const queries = evmQueries(store);
          try {
            return await inSnapshot(store, async () => {
              const block = resolveBlock(queries, store, request.block);
              const view = createStateView(queries, block.consensusEnd);
              const input = callInput(request);
              const run = request.estimate ? estimateGas : executeCall;
              return answerOutcome(await run(view, blockValues(block), chainId, input), request.estimate);
            });
          } catch (error) {
            if (error instanceof JavaHttpError) throw error;
            // An EVM or state fault, not the client's: the web3 shape with a blank detail.
            throw Object.assign(web3Error(500, ""), { cause: error });
          }
        },
      }),
    }),
  ];
}
