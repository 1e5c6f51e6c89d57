import { constants, createPrivateKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CorruptFileError, SignatureError } from "../../src/errors.ts";
import { readAddressBook } from "../../src/streams/address-book.ts";
import { readSignatureFile } from "../../src/streams/signature-file.ts";
import { verifyRecordFileSignature } from "../../src/streams/verify-signature.ts";
import {
  FIXTURE_KEYS,
  flipByte,
  listReal,
  readReal,
  readRecordFor,
  sha384,
  signedHashes,
  versionOfPath,
} from "./signature-record-hashes.ts";

const books = {
  v6Sidecar: readAddressBook(readReal("addressbooks/test-v6-sidecar-4n.bin")),
  v6: readAddressBook(readReal("addressbooks/test-v6-4n.bin")),
  v1: readAddressBook(readReal("addressbooks/test-v1")),
};

function nodeOf(path: string): string {
  const match = /record(0\.0\.\d+)\//.exec(path);
  if (!match?.[1]) throw new Error(`no node in ${path}`);
  return match[1];
}

function keyOf(book: Map<string, KeyObject>, node: string): KeyObject {
  const key = book.get(node);
  if (!key) throw new Error(`no key for ${node}`);
  return key;
}

/** Reads the signature file at `path` and verifies it over `record` (uncompressed) with `publicKey`. */
function verifyReal(
  path: string,
  publicKey: KeyObject,
  record = readRecordFor(path),
  sigBytes = readReal(path),
) {
  const signature = readSignatureFile(path, sigBytes);
  const { fileHash, metadataHash } = signedHashes(signature.version, record);
  verifyRecordFileSignature({ file: path, signature, fileHash, metadataHash, publicKey });
}

function signatureErrorOf(action: () => void): SignatureError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(SignatureError);
    return error as SignatureError;
  }
  throw new Error("no SignatureError thrown");
}

const v6Signatures = listReal("v6/", ".rcd_sig");
const v5ContractSignatures = listReal("v5-contracts/", ".rcd_sig");

describe("verifyRecordFileSignature on real signed files", () => {
  it.each(v6Signatures)("%s verifies with its node's key from test-v6-sidecar-4n.bin", (path) => {
    expect(v6Signatures).toHaveLength(8);
    verifyReal(path, keyOf(books.v6Sidecar, nodeOf(path)));
  });

  it("hashes v6 files uncompressed: the hash of the gzip bytes is not what was signed", () => {
    const path = v6Signatures[0]!;
    const signature = readSignatureFile(path, readReal(path));
    const { metadataHash } = signedHashes(6, readRecordFor(path));
    const gzipped = readReal(`${path.replace(/_sig$/, "")}.gz`);
    const error = signatureErrorOf(() =>
      verifyRecordFileSignature({
        file: path,
        signature,
        fileHash: sha384(gzipped),
        metadataHash,
        publicKey: keyOf(books.v6Sidecar, "0.0.3"),
      }),
    );
    expect(error.message).toMatch(/file hash mismatch/);
  });

  it.each(v5ContractSignatures)("%s verifies with node 0.0.3's key from test-v6-4n.bin", (path) => {
    verifyReal(path, keyOf(books.v6, "0.0.3"));
  });

  it("refuses another node's key", () => {
    const path = "v6/record0.0.3/2022-07-13T08_46_08.041986003Z.rcd_sig";
    const error = signatureErrorOf(() => verifyReal(path, keyOf(books.v6Sidecar, "0.0.4")));
    expect(error.file).toBe(path);
    expect(error.message).toMatch(
      /the file hash signature \(SHA384withRSA over [0-9a-f]{96}\) does not verify/,
    );
  });

  it("finds exactly one signer in test-v6-4n.bin for each standalone v6 signature file", () => {
    for (const path of listReal("signatures/v6/", ".rcd_sig")) {
      const signature = readSignatureFile(path, readReal(path));
      const signers = [...books.v6].filter(([, publicKey]) => {
        try {
          verifyRecordFileSignature({
            file: path,
            signature,
            fileHash: signature.fileHash, // no record file ships with these: only the RSA part is tested
            metadataHash: signature.metadataHash,
            publicKey,
          });
          return true;
        } catch {
          return false;
        }
      });
      expect(signers, path).toHaveLength(1);
    }
  });

  it("cannot verify the 2019 v2 and 2021 v5 files: no address book here holds their signers' keys", () => {
    const unsigned = [...listReal("v2/", ".rcd_sig"), ...listReal("v5/", ".rcd_sig")];
    expect(unsigned).toHaveLength(16);
    for (const path of unsigned) {
      for (const book of Object.values(books)) {
        for (const publicKey of book.values()) {
          const error = signatureErrorOf(() => verifyReal(path, publicKey));
          expect(error.message).toMatch(/file hash signature .* does not verify/);
        }
      }
    }
  });
});

describe("verifyRecordFileSignature refuses tampering", () => {
  const cases = [
    { path: "v6/record0.0.3/2022-07-13T08_46_11.304284003Z.rcd_sig", book: books.v6Sidecar },
    { path: "v5-contracts/record0.0.3/2022-04-28T15_28_34.014499000Z.rcd_sig", book: books.v6 },
  ];

  it.each(cases)("refuses $path over a record file with one flipped byte", ({ path, book }) => {
    const record = readRecordFor(path);
    const flipped = flipByte(record, Math.floor(record.length / 2));
    const error = signatureErrorOf(() => verifyReal(path, keyOf(book, nodeOf(path)), flipped));
    const signed = readSignatureFile(path, readReal(path)).fileHash;
    const recomputed = signedHashes(versionOfPath(path), flipped).fileHash;
    expect(error.message).toContain(
      `file hash mismatch: the signature file signs ${Buffer.from(signed).toString("hex")} ` +
        `but the record file hashes to ${recomputed.toString("hex")}`,
    );
  });

  it.each(cases)("refuses $path with any one byte flipped", ({ path, book }) => {
    const sigBytes = readReal(path);
    const record = readRecordFor(path);
    const publicKey = keyOf(book, nodeOf(path));
    verifyReal(path, publicKey, record, sigBytes);
    const accepted: string[] = [];
    for (const mask of [0x01, 0x80]) {
      for (let index = 0; index < sigBytes.length; index++) {
        try {
          verifyReal(path, publicKey, record, flipByte(sigBytes, index, mask));
          accepted.push(`byte ${index} ^ 0x${mask.toString(16)}`);
        } catch (error) {
          if (!(error instanceof SignatureError || error instanceof CorruptFileError)) throw error;
        }
      }
    }
    expect(accepted).toEqual([]);
  });

  it("refuses a metadata hash that differs from the signed one, or that is missing", () => {
    const path = cases[0]!.path;
    const signature = readSignatureFile(path, readReal(path));
    const { fileHash, metadataHash } = signedHashes(6, readRecordFor(path));
    const publicKey = keyOf(books.v6Sidecar, "0.0.3");
    const wrongMetadata = flipByte(metadataHash!, 0);
    const mismatch = signatureErrorOf(() =>
      verifyRecordFileSignature({ file: path, signature, fileHash, metadataHash: wrongMetadata, publicKey }),
    );
    expect(mismatch.message).toContain(
      `metadata hash mismatch: the signature file signs ${metadataHash!.toString("hex")}`,
    );
    const missing = signatureErrorOf(() =>
      verifyRecordFileSignature({ file: path, signature, fileHash, metadataHash: null, publicKey }),
    );
    expect(missing.message).toMatch(/signs a metadata hash, but none was computed/);
  });

  it("refuses a metadata signature that does not verify", () => {
    const path = cases[0]!.path;
    const signature = readSignatureFile(path, readReal(path));
    const { fileHash, metadataHash } = signedHashes(6, readRecordFor(path));
    const otherNode = readSignatureFile(
      path.replace("0.0.3", "0.0.4"),
      readReal(path.replace("0.0.3", "0.0.4")),
    );
    const spliced = { ...signature, metadataSignature: otherNode.metadataSignature };
    const error = signatureErrorOf(() =>
      verifyRecordFileSignature({
        file: path,
        signature: spliced,
        fileHash,
        metadataHash,
        publicKey: keyOf(books.v6Sidecar, "0.0.3"),
      }),
    );
    expect(error.message).toMatch(/the metadata hash signature .* does not verify/);
  });

  it("refuses a key that is not an RSA public key", () => {
    const path = cases[0]!.path;
    const { publicKey } = generateKeyPairSync("ed25519");
    const error = signatureErrorOf(() => verifyReal(path, publicKey));
    expect(error.message).toMatch(/node key is a public ed25519 key, not RSA public/);
  });
});

describe("verifyRecordFileSignature on the v2 form", () => {
  // No key for the real v2 files is at hand, so a real v2 record file is signed here with the fixture key,
  // laid out as v2 signature files are (type 4, hash, type 3, length, signature).
  const privateKey = createPrivateKey(readFileSync(new URL("node-0.0.3.key.pem", FIXTURE_KEYS)));
  const publicKey = keyOf(readAddressBook(readFileSync(new URL("address-book.bin", FIXTURE_KEYS))), "0.0.3");
  const path = "v2/record0.0.3/2019-08-30T18_10_00.419072Z.rcd_sig";
  const record = readRecordFor(path);
  const { fileHash } = signedHashes(2, record);
  const rsa = sign("sha384", fileHash, { key: privateKey, padding: constants.RSA_PKCS1_PADDING });
  const length = Buffer.alloc(4);
  length.writeInt32BE(rsa.length);
  const v2Bytes = Buffer.concat([Uint8Array.of(4), fileHash, Uint8Array.of(3), length, rsa]);

  it("verifies, and signs no metadata", () => {
    verifyReal(path, publicKey, record, v2Bytes);
    const signature = readSignatureFile(path, v2Bytes);
    const error = signatureErrorOf(() =>
      verifyRecordFileSignature({ file: path, signature, fileHash, metadataHash: fileHash, publicKey }),
    );
    expect(error.message).toMatch(/v2 signature file signs no metadata hash, but the record file has one/);
  });

  it("refuses a flipped byte in the record file's header or body", () => {
    for (const index of [5, record.length - 1]) {
      const error = signatureErrorOf(() => verifyReal(path, publicKey, flipByte(record, index), v2Bytes));
      expect(error.message).toMatch(/file hash mismatch/);
    }
  });
});
