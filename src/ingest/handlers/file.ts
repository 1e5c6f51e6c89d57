/**
 * FileCreate, FileUpdate and FileAppend: each successful transaction's contents are kept with its consensus time
 * and type, so any version of the file can be rebuilt later: system files for the network group (api.md §3.1,
 * §5.2), user files for contract bytecode uploaded as a file and Ethereum call data offloaded to one
 * (contracts.md §2.5, §3.5). Address-book files also start address books.
 */
import { decodeEntityId, entityIdOf } from "../../ids.ts";
import { FILE_APPEND, FILE_CREATE, FILE_UPDATE } from "../../store/network-writes.ts";
import { ADDRESS_BOOK_101, ADDRESS_BOOK_102, applyAddressBookFile } from "./address-book.ts";
import type { HandlerContext } from "./context.ts";

/** The new file's id comes from the receipt. */
export function handleFileCreate(ctx: HandlerContext): void {
  const fileId = entityIdOf(ctx.item.record.receipt?.fileID);
  storeFileData(ctx, fileId, FILE_CREATE, ctx.item.body.fileCreate?.contents);
}

/** An update without contents is still kept (as an empty update, which reconstruction skips). */
export function handleFileUpdate(ctx: HandlerContext): void {
  const body = ctx.item.body.fileUpdate;
  storeFileData(ctx, entityIdOf(body?.fileID), FILE_UPDATE, body?.contents);
}

export function handleFileAppend(ctx: HandlerContext): void {
  const body = ctx.item.body.fileAppend;
  storeFileData(ctx, entityIdOf(body?.fileID), FILE_APPEND, body?.contents);
}

function storeFileData(
  { item, store }: HandlerContext,
  fileId: bigint | null,
  type: number,
  contents: Uint8Array | null | undefined,
): void {
  if (fileId === null) return;
  const { num } = decodeEntityId(fileId);
  const bytes = contents ?? new Uint8Array();
  store.network.insertFileData({ fileId, consensusNs: item.consensusNs, type, contents: bytes });
  if (num === ADDRESS_BOOK_101 || num === ADDRESS_BOOK_102) {
    applyAddressBookFile(store, fileId, item.consensusNs, type, bytes);
  }
}
