import { createPrivateKey, createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { writeSignatureFileV6 } from "../../fixtures/writer/write-signature-file.ts";
import { SignatureError } from "../../src/errors.ts";
import { readAddressBook } from "../../src/streams/address-book.ts";
import { proto } from "../../src/streams/proto.ts";
import { readSignatureFile } from "../../src/streams/signature-file.ts";
import { encodeSignatureFileV6 } from "../../src/streams/signature-file-v6-encode.ts";
import { verifyRecordFileSignature } from "../../src/streams/verify-signature.ts";
import {
  FIXTURE_KEYS,
  flipByte,
  listReal,
  readReal,
  readRecordFor,
  signedHashes,
} from "./signature-record-hashes.ts";

const privateKey = createPrivateKey(readFileSync(new URL("node-0.0.3.key.pem", FIXTURE_KEYS)));
const fixtureBook = readAddressBook(
  readFileSync(new URL("address-book.bin", FIXTURE_KEYS)),
  "address-book.bin",
);
const publicKey = fixtureBook.get("0.0.3")!;

// A real record file, re-signed as if fixture node 0.0.3 had written it.
const recordPath = "v6/record0.0.3/2022-07-13T08_46_11.304284003Z.rcd_sig";
const record = readRecordFor(recordPath);
const { fileHash, metadataHash } = signedHashes(6, record);

describe("encodeSignatureFileV6", () => {
  it.each(listReal("", ".rcd_sig").filter((path) => readReal(path)[0] === 6))(
    "rebuilds %s byte for byte from its hashes and signatures",
    (path) => {
      const bytes = readReal(path);
      const contents = readSignatureFile(path, bytes);
      const rebuilt = encodeSignatureFileV6({
        fileHash: contents.fileHash,
        fileSignature: contents.fileSignature,
        metadataHash: contents.metadataHash!,
        metadataSignature: contents.metadataSignature!,
      });
      expect(Buffer.from(rebuilt).equals(bytes)).toBe(true);
    },
  );

  it("refuses a hash that is not 48 bytes", () => {
    expect(() =>
      encodeSignatureFileV6({
        fileHash: new Uint8Array(32),
        fileSignature: new Uint8Array(384),
        metadataHash: metadataHash!,
        metadataSignature: new Uint8Array(384),
      }),
    ).toThrow(/must be 48 bytes, got 32/);
  });
});

describe("writeSignatureFileV6", () => {
  const written = writeSignatureFileV6({ fileHash, metadataHash: metadataHash!, privateKey });

  it("writes a signature file that reads back and verifies against the fixture address book", () => {
    expect(fixtureBook.size).toBe(1);
    const signature = readSignatureFile("fixture.rcd_sig", written);
    expect(signature.version).toBe(6);
    expect(Buffer.from(signature.fileHash).equals(fileHash)).toBe(true);
    expect(Buffer.from(signature.metadataHash!).equals(metadataHash!)).toBe(true);
    verifyRecordFileSignature({ file: "fixture.rcd_sig", signature, fileHash, metadataHash, publicKey });
  });

  it("fills the signature objects as nodes do", () => {
    expect(written[0]).toBe(6);
    const decoded = proto.SignatureFile.decode(written.subarray(1));
    for (const object of [decoded.fileSignature!, decoded.metadataSignature!]) {
      expect(object.type).toBe(proto.SignatureType.SHA_384_WITH_RSA);
      expect(object.length).toBe(384);
      expect(object.checksum).toBe(101 - 384);
      expect(object.signature).toHaveLength(384);
      expect(object.hashObject?.algorithm).toBe(proto.HashAlgorithm.SHA_384);
      expect(object.hashObject?.length).toBe(48);
    }
  });

  it("is deterministic: two writes give the same bytes", () => {
    const again = writeSignatureFileV6({ fileHash, metadataHash: metadataHash!, privateKey });
    expect(Buffer.from(again).equals(Buffer.from(written))).toBe(true);
  });

  it("is refused for a changed record file, a flipped byte, or a real node's key", () => {
    const signature = readSignatureFile("fixture.rcd_sig", written);
    const tampered = signedHashes(6, flipByte(record, record.length - 10));
    expect(() =>
      verifyRecordFileSignature({ file: "fixture.rcd_sig", signature, ...tampered, publicKey }),
    ).toThrow(SignatureError);
    const flippedSignature = readSignatureFile("fixture.rcd_sig", flipByte(written, written.length - 60));
    expect(() =>
      verifyRecordFileSignature({
        file: "fixture.rcd_sig",
        signature: flippedSignature,
        fileHash,
        metadataHash,
        publicKey,
      }),
    ).toThrow(/metadata hash signature .* does not verify/);
    const realNodeKey = readAddressBook(readReal("addressbooks/test-v6-sidecar-4n.bin")).get("0.0.3")!;
    expect(() =>
      verifyRecordFileSignature({
        file: "fixture.rcd_sig",
        signature,
        fileHash,
        metadataHash,
        publicKey: realNodeKey,
      }),
    ).toThrow(/file hash signature .* does not verify/);
  });

  it("needs an RSA private key", () => {
    expect(() =>
      writeSignatureFileV6({
        fileHash,
        metadataHash: metadataHash!,
        privateKey: createPublicKey(privateKey),
      }),
    ).toThrow(/needs an RSA private key, got a public rsa key/);
  });
});
