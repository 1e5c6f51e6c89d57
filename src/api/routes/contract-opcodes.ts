import { DEFAULT_CHAIN_ID } from "../../evm/chain.ts";
import type { BlockValues } from "../../evm/execute.ts";
import { type ReplaySource, replayWithOpcodes } from "../../evm/opcodes/replay.ts";
import { type ContractOpcodesQueries, createContractOpcodesQueries } from "../../store/contract-opcodes.ts";
import { createEvmStateQueries, type EvmBlockRow, type EvmStateQueries } from "../../store/evm-state.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { JavaHttpError } from "../java/index.ts";
import { toJson } from "../json.ts";
import { web3Error } from "../web3/errors.ts";
import { OPCODES_PATH_SHAPE, type OpcodesRequest, readOpcodesRequest } from "../web3/opcodes-request.ts";
import { defineRoute, javaAnswer, type RouteAnswer, type RouteDef } from "./route-table.ts";

type Queries = { evm: EvmStateQueries; opcodes: ContractOpcodesQueries };

/** Each thread's store gets its prepared reads once. */
const queriesByStore = new WeakMap<ReadStore, Queries>();
function queriesOf(store: ReadStore): Queries {
  let queries = queriesByStore.get(store);
  if (queries === undefined) {
    queries = { evm: createEvmStateQueries(store.db), opcodes: createContractOpcodesQueries(store.db) };
    queriesByStore.set(store, queries);
  }
  return queries;
}

const notFound = (detail: string) => web3Error(404, detail);

/** The transaction the path names and what its replay needs, or upstream's 404. */
function locate(store: ReadStore, queries: Queries, request: OpcodesRequest): ReplaySource {
  const { locator } = request;
  let consensusNs: bigint;
  let payerId: bigint;
  let transactionType: number | null = null;
  if (locator.kind === "hash") {
    const found = store.contractResults.findByHash(Buffer.from(locator.hash, "hex"));
    if (found === undefined) {
      throw notFound(`Contract transaction hash not found: TransactionHashParameter[hash=0x${locator.hash}]`);
    }
    consensusNs = found.consensusNs;
    payerId = found.payerId;
  } else {
    const found = queries.opcodes.firstTransactionById(locator.payerId, locator.validStartNs);
    if (found === undefined) throw notFound(`Transaction not found: ${locator.text}`);
    consensusNs = found.consensusNs;
    payerId = locator.payerId;
    transactionType = found.type;
  }
  const result = store.contractResults.resultAt(consensusNs);
  if (result === undefined) throw notFound(`Contract result not found: ${consensusNs}`);
  const eth = store.contractResults.ethereumTransactionAt(consensusNs, payerId);
  return { result, eth, transactionType };
}

/** The block values of the transaction's block, as `/contracts/call` shows them. */
function blockValues(block: EvmBlockRow): BlockValues {
  return {
    number: block.number,
    timestamp: block.consensusStart / 1_000_000_000n,
    prevRandao: Uint8Array.from(Buffer.from(block.hash.slice(0, 64).padEnd(64, "0"), "hex")),
  };
}

async function answer(store: ReadStore, request: OpcodesRequest, chainId: bigint): Promise<RouteAnswer> {
  const queries = queriesOf(store);
  const source = locate(store, queries, request);
  const block = queries.evm.block(source.result.blockNumber);
  if (block === undefined) throw notFound(`Contract result not found: ${source.result.consensusNs}`);
  try {
    const outcome = await replayWithOpcodes(queries.evm, source, blockValues(block), chainId, request);
    if (outcome.kind === "unsupported") throw web3Error(501, `Precompile not supported: ${outcome.address}`);
    return javaAnswer(toJson(outcome.response));
  } catch (error) {
    if (error instanceof JavaHttpError) throw error;
    // An EVM or state fault, not the client's: the web3 shape with a blank detail.
    throw Object.assign(web3Error(500, ""), { cause: error });
  }
}

/**
 * `GET /api/v1/contracts/results/{transactionIdOrHash}/opcodes` (issue 28; upstream's web3 `OpcodesController`):
 * replays a recorded contract transaction on the state just before it and answers every operation it ran. Off
 * unless `enabled` (`--opcodes on`), as upstream ships it: then 404 once the request reads right. Only the path
 * shapes upstream's ingress sends to web3 are this route's; others get the Node service's 404. The replay runs on
 * a read worker and is bounded by `--query-timeout-ms`, the recorded gas limit (at most 15,000,000) and the
 * trace limits of src/evm/opcodes/tracer.ts.
 */
export function contractOpcodesRoutes(enabled = false, chainId: bigint = DEFAULT_CHAIN_ID): RouteDef[] {
  return [
    defineRoute<OpcodesRequest>({
      template: "/api/v1/contracts/results/{transactionIdOrHash}/opcodes",
      caching: "none",
      maxAge: 0,
      style: "java",
      accepts: (params) => OPCODES_PATH_SHAPE.test(params.transactionIdOrHash ?? ""),
      parsesHeaders: true,
      parse: (request, headers) =>
        readOpcodesRequest(request.params.transactionIdOrHash ?? "", request.url, headers ?? {}, enabled),
      answer: () => {
        throw new Error("unreachable: the replay is answered by answerAsync");
      },
      answerAsync: (store, query) => answer(store, query as OpcodesRequest, chainId),
    }),
  ];
}
