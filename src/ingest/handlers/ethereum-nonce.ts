import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import type { HandlerContext } from "./context.ts";

/**
 * An EthereumTransaction's signer nonce (HAPI 0.47 and later records carry it in the contract result, whatever
 * the transaction's status) becomes the sender account's `ethereum_nonce`, in place: like upstream's
 * `EthereumTransactionHandler.updateAccountNonce`, a nonce opens no version of the account. Older records
 * carry no nonce (upstream reads it from the RLP-encoded transaction instead); they leave it unchanged.
 */
export function applyEthereumNonce({ item, store }: HandlerContext): void {
  if (item.bodyCase !== "ethereumTransaction") return;
  const result = item.record.contractCreateResult ?? item.record.contractCallResult;
  const nonce = result?.signerNonce;
  if (result == null || nonce == null) return;
  const senderId = entityIdOf(result.senderId);
  if (senderId === null || senderId === 0n) return;
  store.entity.touch([senderId], { ethereum_nonce: toBigInt(nonce.value) });
}
