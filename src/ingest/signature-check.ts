import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { SignatureError } from "../errors.ts";
import { readAddressBook } from "../streams/address-book.ts";
import { readSignatureFile } from "../streams/signature-file.ts";
import { verifyRecordFileSignature } from "../streams/verify-signature.ts";
import type { SignatureCheck } from "./ingestor.ts";

/**
 * Builds the `--verify-signatures` check from a `NodeAddressBook` file. The node that wrote a directory is named
 * by the directory (`record0.0.3`), as nodes lay out their streams.
 */
export function loadSignatureCheck(addressBookPath: string, recordsDir: string): SignatureCheck {
  const keys = readAddressBook(readFileSync(addressBookPath));
  const node = /^record(\d+\.\d+\.\d+)$/.exec(basename(recordsDir))?.[1];
  return (file, signatureBytes, signatureName) => {
    const publicKey = node ? keys.get(node) : undefined;
    if (!publicKey)
      throw new SignatureError(file.name, `the address book has no key for node ${node ?? "(unknown)"}`);
    verifyRecordFileSignature({
      file: file.name,
      signature: readSignatureFile(signatureName, signatureBytes),
      fileHash: file.fileHash,
      metadataHash: file.metadataHash,
      publicKey,
    });
  };
}
