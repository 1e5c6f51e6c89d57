import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { writeRecordFileV6 } from "../../fixtures/writer/write-record-file.ts";
import { writeSignatureFileV6 } from "../../fixtures/writer/write-signature-file.ts";
import { SignatureError } from "../../src/errors.ts";
import { readAddressBook } from "../../src/streams/address-book.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { readSignatureFile } from "../../src/streams/signature-file.ts";
import { verifyRecordFileSignature } from "../../src/streams/verify-signature.ts";
import { FIXTURE_KEYS, flipByte, listReal, readReal, readRecordFor } from "./signature-record-hashes.ts";

// The production path: the record reader's hashes, checked against real node signatures.
const signers = [
  { folder: "v6/", book: "addressbooks/test-v6-sidecar-4n.bin", suffix: ".gz" },
  { folder: "v5-contracts/", book: "addressbooks/test-v6-4n.bin", suffix: "" },
];

describe.each(signers)(
  "readRecordFile + verifyRecordFileSignature on $folder",
  ({ folder, book, suffix }) => {
    const keys = readAddressBook(readReal(book), book);

    it.each(listReal(folder, ".rcd_sig"))("%s verifies over the reader's hashes", (path) => {
      const recordName = `${path.replace(/_sig$/, "")}${suffix}`;
      const record = readRecordFile(recordName, readReal(recordName));
      const node = /record(0\.0\.\d+)\//.exec(path)?.[1] ?? "";
      verifyRecordFileSignature({
        file: path,
        signature: readSignatureFile(path, readReal(path)),
        fileHash: record.fileHash,
        metadataHash: record.metadataHash,
        publicKey: keys.get(node)!,
      });
    });
  },
);

describe("readRecordFile + verifyRecordFileSignature on v2", () => {
  it("the reader's v2 file hash is the hash the real signature files carry", () => {
    for (const path of listReal("v2/", ".rcd_sig")) {
      const recordName = path.replace(/_sig$/, "");
      const record = readRecordFile(recordName, readReal(recordName));
      const signature = readSignatureFile(path, readReal(path));
      expect(Buffer.from(record.fileHash).equals(Buffer.from(signature.fileHash))).toBe(true);
      expect(record.metadataHash).toBeNull();
    }
  });

  it("a record file changed after signing is refused", () => {
    const path = "v2/record0.0.3/2019-08-30T18_10_00.419072Z.rcd_sig";
    const name = path.replace(/_sig$/, "");
    const record = readRecordFor(path);
    const changed = readRecordFile(name, flipByte(record, 20));
    const signature = readSignatureFile(path, readReal(path));
    const anyKey = readAddressBook(readReal("addressbooks/test-v1")).get("0.0.3")!;
    expect(() =>
      verifyRecordFileSignature({
        file: path,
        signature,
        fileHash: changed.fileHash,
        metadataHash: null,
        publicKey: anyKey,
      }),
    ).toThrow(SignatureError);
  });
});

describe("a fixture record file and its signature, as a node would write them", () => {
  const privateKey = createPrivateKey(readFileSync(new URL("node-0.0.3.key.pem", FIXTURE_KEYS)));
  const publicKey = readAddressBook(readFileSync(new URL("address-book.bin", FIXTURE_KEYS))).get("0.0.3")!;
  const source = readRecordFile(
    "block6.rcd.gz",
    readReal("v6/record0.0.3/2022-07-13T08_46_11.304284003Z.rcd.gz"),
  );
  const written = writeRecordFileV6({
    hapiVersion: { major: 0, minor: 28, patch: 0 },
    blockNumber: 42n,
    startRunningHash: source.previousHash,
    items: source.items,
  });
  const sigBytes = writeSignatureFileV6({
    fileHash: written.fileHash,
    metadataHash: written.metadataHash,
    privateKey,
  });

  it("verifies over the hashes the reader computes from the written .rcd.gz", () => {
    const record = readRecordFile("fixture.rcd.gz", written.gzipBytes);
    verifyRecordFileSignature({
      file: "fixture.rcd_sig",
      signature: readSignatureFile("fixture.rcd_sig", sigBytes),
      fileHash: record.fileHash,
      metadataHash: record.metadataHash,
      publicKey,
    });
  });

  it("is refused for a record file that differs only in its block number", () => {
    // A flipped byte would already fail the reader's running-hash check; a well-formed other file shows
    // that the signature binds this file's contents.
    const other = writeRecordFileV6({
      hapiVersion: { major: 0, minor: 28, patch: 0 },
      blockNumber: 43n,
      startRunningHash: source.previousHash,
      items: source.items,
    });
    const changed = readRecordFile("other.rcd.gz", other.gzipBytes);
    expect(() =>
      verifyRecordFileSignature({
        file: "fixture.rcd_sig",
        signature: readSignatureFile("fixture.rcd_sig", sigBytes),
        fileHash: changed.fileHash,
        metadataHash: changed.metadataHash,
        publicKey,
      }),
    ).toThrow(SignatureError);
  });
});
