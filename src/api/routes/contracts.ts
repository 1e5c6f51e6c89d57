/**
 * The contracts group (contracts.md): `/api/v1/contracts`, `/contracts/{contractIdOrAddress}` and its `/state`,
 * and, through their own modules, the result and log routes. Table order: every `/contracts/results…` path
 * before `/contracts/{contractIdOrAddress}…` (upstream's handlers step aside for the literal `results`), and
 * `/contracts/{id}/results/logs` before `/contracts/{id}/results/{timestamp}`.
 */
import { formatEntityId } from "../../ids.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { resolveContractRef } from "../contract-ref.ts";
import { HttpError, notFound } from "../http-errors.ts";
import { parseContractStateRequest } from "../params/contract-state.ts";
import { parseContractRequest, parseContractsRequest } from "../params/contracts.ts";
import { nextLink, type ParamOptions, unwrapParams } from "../params/index.ts";
import { contractSlotView } from "../views/contract-state.ts";
import { contractDetailView, contractView, isUserFile } from "../views/contracts.ts";
import { uint256 } from "../views/evm-hex.ts";
import { contractLogByIdRoutes, contractLogRoutes } from "./contract-logs.ts";
import { contractResultByIdRoutes, contractResultRoutes } from "./contract-results.ts";
import { defineRoute, jsonAnswer, type RouteDef } from "./route-table.ts";

const CONTRACTS_MAX_AGE = 10;
const CONTRACT_MAX_AGE = 1;
const STATE_MAX_AGE = 1;

/** A slot filter value as bytes: 32 bytes left-padded (current state) or trimmed (as of a time). */
function slotBytes(hexDigits: string, padded: boolean): Buffer {
  if (padded) return Buffer.from(hexDigits.padStart(64, "0"), "hex");
  const trimmed = hexDigits.replace(/^0*/, "");
  return Buffer.from(trimmed.length % 2 === 0 ? trimmed : `0${trimmed}`, "hex");
}

function contractRoutesOwn(options: Partial<ParamOptions>): RouteDef[] {
  return [
    defineRoute({
      template: "/api/v1/contracts",
      caching: "stale-ok",
      maxAge: CONTRACTS_MAX_AGE,
      parse: ({ url }) => unwrapParams(parseContractsRequest(url, options)),
      answer: (store: ReadStore, request) => {
        const rows = store.contracts.listContracts({
          idsIn: request.idsIn.map((ref) => resolveContractRef(store, ref)),
          idConditions: request.idConditions.map((c) => ({
            op: c.op,
            value: resolveContractRef(store, c.value),
          })),
          order: request.order,
          limit: request.limit,
        });
        const last = rows.at(-1);
        const next = nextLink(
          request.paging,
          rows.length,
          last === undefined ? undefined : (formatEntityId(last.id) ?? ""),
        );
        return jsonAnswer({ contracts: rows.map(contractView), links: { next } });
      },
    }),
  ];
}

function contractByIdRoutes(options: Partial<ParamOptions>): RouteDef[] {
  return [
    defineRoute({
      template: "/api/v1/contracts/{contractIdOrAddress}",
      caching: "exact",
      maxAge: CONTRACT_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(parseContractRequest(params.contractIdOrAddress ?? "", url, options)),
      answer: (store: ReadStore, { contract, timestamps }) => {
        const key =
          contract.kind === "id"
            ? { id: contract.id }
            : { evmAddress: Buffer.from(contract.evmAddress, "hex") };
        const row = store.contracts.getContract(key, timestamps);
        if (row === undefined) throw notFound();
        const contents =
          isUserFile(row.fileId) && row.createdNs !== null
            ? (store.systemFiles.fileAsOf(row.fileId, { lowerNs: 0n, upperNs: row.createdNs })?.bytes ?? null)
            : null;
        return jsonAnswer(contractDetailView(row, contents));
      },
    }),
    defineRoute({
      template: "/api/v1/contracts/{contractIdOrAddress}/state",
      caching: "stale-ok",
      maxAge: STATE_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(parseContractStateRequest(params.contractIdOrAddress ?? "", url, options)),
      answer: (store: ReadStore, request) => {
        const contractId = resolveContractRef(store, request.contract);
        if (request.timestampProblem !== null) throw new HttpError(400, [request.timestampProblem]);
        const padded = request.timestamps.length === 0;
        const rows = store.contractState.listState({
          contractId,
          slotsIn: request.slotsIn.map((slot) => slotBytes(slot, padded)),
          slotConditions: request.slotConditions.map((c) => ({
            op: c.op,
            value: slotBytes(c.value, padded),
          })),
          timestamps: request.timestamps,
          order: request.order,
          limit: request.limit,
        });
        const last = rows.at(-1);
        const next = nextLink(
          request.paging,
          rows.length,
          last === undefined ? undefined : (uint256(last.slot) ?? undefined),
        );
        return jsonAnswer({ state: rows.map(contractSlotView), links: { next } });
      },
    }),
  ];
}

/** Every contracts route, in matching order; `options` are the shard, realm and limits of the grammar. */
export function contractRoutes(options: Partial<ParamOptions> = {}): RouteDef[] {
  return [
    ...contractRoutesOwn(options),
    ...contractLogRoutes(options),
    ...contractResultRoutes(options),
    ...contractByIdRoutes(options),
    ...contractLogByIdRoutes(options),
    ...contractResultByIdRoutes(options),
  ];
}
