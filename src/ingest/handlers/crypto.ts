import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { timestampToNs } from "../../time.ts";
import type { HandlerContext } from "./context.ts";
import { keyBytes, publicKeyOf } from "./keys.ts";

const EVM_ADDRESS_BYTES = 20;

/** CryptoCreate, including the child records of accounts created automatically for an alias. */
export function handleCryptoCreate({ item, store }: HandlerContext): void {
  const body = item.body.cryptoCreateAccount!;
  const accountId = entityIdOf(item.record.receipt?.accountID);
  if (accountId === null) return;
  const t = item.consensusNs;
  const alias = nonEmpty(item.record.alias) ?? nonEmpty(body.alias);
  // An account created for a key alias has no key of its own in the body: the alias is its key.
  const key = body.key ?? (alias !== null && alias.length > EVM_ADDRESS_BYTES ? decodeKey(alias) : null);
  store.entity.create([accountId], t, {
    type: "ACCOUNT",
    created_ns: t,
    deleted: false,
    memo: body.memo ?? "",
    key: keyBytes(key),
    public_key: publicKeyOf(key),
    auto_renew_account_id: null,
    auto_renew_period: body.autoRenewPeriod ? toBigInt(body.autoRenewPeriod.seconds) : null,
    expiration_ns: null,
    alias,
    evm_address: nonEmpty(item.record.evmAddress) ?? (alias?.length === EVM_ADDRESS_BYTES ? alias : null),
  });
}

export function handleCryptoUpdate({ item, store }: HandlerContext): void {
  const body = item.body.cryptoUpdateAccount!;
  const accountId = entityIdOf(body.accountIDToUpdate);
  if (accountId === null) return;
  const patch: Record<string, unknown> = { deleted: false };
  if (body.key) {
    patch.key = keyBytes(body.key);
    patch.public_key = publicKeyOf(body.key);
  }
  if (body.memo) patch.memo = body.memo.value ?? "";
  if (body.autoRenewPeriod) patch.auto_renew_period = toBigInt(body.autoRenewPeriod.seconds);
  if (body.expirationTime) patch.expiration_ns = timestampToNs(body.expirationTime);
  store.entity.change([accountId], item.consensusNs, patch);
}

export function handleCryptoDelete({ item, store }: HandlerContext): void {
  const accountId = entityIdOf(item.body.cryptoDelete!.deleteAccountID);
  if (accountId !== null) store.entity.change([accountId], item.consensusNs, { deleted: true });
}

function nonEmpty(bytes: Uint8Array | null | undefined): Uint8Array | null {
  return bytes != null && bytes.length > 0 ? bytes : null;
}

/** A key alias as a protobuf `Key`; null when the bytes are not one. */
function decodeKey(bytes: Uint8Array): proto.IKey | null {
  try {
    return proto.Key.decode(bytes);
  } catch {
    return null;
  }
}
