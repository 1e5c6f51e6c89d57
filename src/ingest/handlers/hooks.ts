/**
 * Hooks (HIP-1195), as upstream's importer keeps them (`EVMHookHandler`, `HookStoreTransactionHandler`): a
 * successful CryptoCreate, CryptoUpdate, ContractCreate or ContractUpdate deletes the hooks its body lists in
 * `hook_ids_to_delete` and then creates those of `hook_creation_details`, in body order, at its consensus time;
 * a creation's storage updates and a HookStore's are applied to the hook's storage (`applyStorageUpdates`).
 *
 * This runs as its own pass after the body's handler (account and contract handlers stay unaware of hooks).
 * Storage written by hook executions (sidecars / EVM trace data of child calls to 0.0.365) is not read yet.
 */
import { entityIdOf } from "../../ids.ts";
import { keccak256 } from "../../streams/keccak.ts";
import { toBigInt } from "../../streams/long.ts";
import type { proto } from "../../streams/proto.ts";
import type { HandlerContext } from "./context.ts";
import { keyBytes } from "./keys.ts";

type HookCreation = NonNullable<proto.ICryptoCreateTransactionBody["hookCreationDetails"]>[number];
type StorageUpdate = NonNullable<NonNullable<proto.ITransactionBody["hookStore"]>["storageUpdates"]>[number];

/** HookExtensionPoint.ACCOUNT_ALLOWANCE_HOOK and the EVM hook type, the only values there are. */
export const ACCOUNT_ALLOWANCE_HOOK = 0n;
export const EVM_HOOK = 0n;

type HookId = Parameters<typeof toBigInt>[0];
type HookBody = { creations: readonly HookCreation[]; deletions: readonly HookId[]; owner: bigint | null };

/** The owner, creations and deletions a successful body carries, or null for bodies without hooks. */
function hookBody({ item }: HandlerContext): HookBody | null {
  const receipt = item.record.receipt;
  switch (item.bodyCase) {
    case "cryptoCreateAccount": {
      const body = item.body.cryptoCreateAccount!;
      return {
        creations: body.hookCreationDetails ?? [],
        deletions: [],
        owner: entityIdOf(receipt?.accountID),
      };
    }
    case "cryptoUpdateAccount": {
      const body = item.body.cryptoUpdateAccount!;
      return {
        creations: body.hookCreationDetails ?? [],
        deletions: body.hookIdsToDelete ?? [],
        owner: entityIdOf(body.accountIDToUpdate),
      };
    }
    case "contractCreateInstance": {
      const body = item.body.contractCreateInstance!;
      return {
        creations: body.hookCreationDetails ?? [],
        deletions: [],
        owner: entityIdOf(receipt?.contractID),
      };
    }
    case "contractUpdateInstance": {
      const body = item.body.contractUpdateInstance!;
      return {
        creations: body.hookCreationDetails ?? [],
        deletions: body.hookIdsToDelete ?? [],
        owner: entityIdOf(receipt?.contractID) ?? entityIdOf(body.contractID),
      };
    }
    default:
      return null;
  }
}

/** The hook pass of a transaction: creations and deletions of a successful body, and HookStore. */
export function applyHookChanges(ctx: HandlerContext): void {
  const { item, store } = ctx;
  if (!item.successful) return;
  if (item.bodyCase === "hookStore") {
    handleHookStore(ctx);
    return;
  }
  const body = hookBody(ctx);
  if (body === null || body.owner === null) return;
  if (body.creations.length === 0 && body.deletions.length === 0) return;
  const owner = body.owner;
  const t = item.consensusNs;
  for (const id of body.deletions) {
    const key = [owner, toBigInt(id)];
    const current = store.hooks.hooks.current(key);
    // A hook the index never saw: a row of what the deletion says, with upstream's defaults.
    store.hooks.hooks.create(key, t, {
      contract_id: current?.contract_id ?? null,
      admin_key: current?.admin_key ?? null,
      created_ns: current?.created_ns ?? null,
      deleted: true,
      extension_point: current?.extension_point ?? ACCOUNT_ALLOWANCE_HOOK,
      type: current?.type ?? EVM_HOOK,
    });
  }
  for (const creation of body.creations) {
    const contractId = creation.evmHook?.spec?.contractId;
    if (contractId == null) continue;
    const hookId = toBigInt(creation.hookId);
    store.hooks.hooks.create([owner, hookId], t, {
      contract_id: entityIdOf(contractId),
      admin_key: creation.adminKey == null ? null : keyBytes(creation.adminKey),
      created_ns: t,
      deleted: false,
      extension_point: ACCOUNT_ALLOWANCE_HOOK,
      type: EVM_HOOK,
    });
    applyStorageUpdates(ctx, owner, hookId, creation.evmHook?.storageUpdates ?? []);
  }
}

/** HookStore: the updates of its body, for the hook it names (which need not be known). */
function handleHookStore(ctx: HandlerContext): void {
  const body = ctx.item.body.hookStore!;
  const entity = body.hookId?.entityId;
  const owner = entityIdOf(entity?.accountId) ?? entityIdOf(entity?.contractId) ?? 0n;
  applyStorageUpdates(ctx, owner, toBigInt(body.hookId?.hookId), body.storageUpdates ?? []);
}

/**
 * Applies storage updates at the transaction's time. Walked from last to first (mapping entries too) and a slot
 * already written in this walk is skipped, so the last occurrence in body order wins, as upstream.
 */
function applyStorageUpdates(
  { item, store }: HandlerContext,
  ownerId: bigint,
  hookId: bigint,
  updates: readonly StorageUpdate[],
): void {
  const seen = new Set<string>();
  const write = (key: Uint8Array, value: Uint8Array) => {
    const seenKey = Buffer.from(key).toString("hex");
    if (seen.has(seenKey)) return;
    seen.add(seenKey);
    const stripped = stripLeadingZeros(value);
    store.hooks.storageAccess({
      ownerId,
      hookId,
      key,
      consensusNs: item.consensusNs,
      read: stripped,
      written: stripped,
    });
  };
  for (let i = updates.length - 1; i >= 0; i--) {
    const update = updates[i]!;
    if (update.storageSlot != null) {
      write(update.storageSlot.key ?? new Uint8Array(), update.storageSlot.value ?? new Uint8Array());
    } else if (update.mappingEntries != null) {
      const mappingSlot = padWord(update.mappingEntries.mappingSlot ?? new Uint8Array());
      const entries = update.mappingEntries.entries ?? [];
      for (let j = entries.length - 1; j >= 0; j--) {
        const entry = entries[j]!;
        const key =
          entry.preimage != null ? keccak256(entry.preimage) : padWord(entry.key ?? new Uint8Array());
        write(keccak256(concat(key, mappingSlot)), entry.value ?? new Uint8Array());
      }
    }
  }
}

/** `bytes` without its leading zero bytes (all zeros: empty). */
export function stripLeadingZeros(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  return bytes.subarray(i);
}

function padWord(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= 32) return bytes.subarray(bytes.length - 32);
  const out = new Uint8Array(32);
  out.set(bytes, 32 - bytes.length);
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
