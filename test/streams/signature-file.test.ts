import { describe, expect, it } from "vitest";
import { CorruptFileError } from "../../src/errors.ts";
import { proto } from "../../src/streams/proto.ts";
import { readSignatureFile } from "../../src/streams/signature-file.ts";
import {
  listReal,
  readReal,
  readRecordFor,
  sha384,
  signedHashes,
  versionOfPath,
} from "./signature-record-hashes.ts";

const signatureFiles = listReal("", ".rcd_sig");
const filesBesideRecords = signatureFiles.filter((path) => !path.startsWith("signatures/"));

function corruptMessage(name: string, bytes: Uint8Array): string {
  try {
    readSignatureFile(name, bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(CorruptFileError);
    expect((error as CorruptFileError).file).toBe(name);
    return (error as Error).message;
  }
  throw new Error(`${name} was accepted`);
}

describe("readSignatureFile on real signature files", () => {
  it("finds the signature files of every version", () => {
    const versions = new Set(signatureFiles.map(versionOfPath));
    expect([...versions].sort()).toEqual([2, 5, 6]);
    expect(signatureFiles).toContain("signatures/v2/2019-08-30T18_10_00.419072Z.rcd_sig");
    expect(signatureFiles.length).toBeGreaterThanOrEqual(30);
  });

  it.each(signatureFiles)("reads %s", (path) => {
    const contents = readSignatureFile(path, readReal(path));
    const version = versionOfPath(path);
    expect(contents.version).toBe(version);
    expect(contents.fileHash).toHaveLength(48);
    expect(contents.fileSignature).toHaveLength(384);
    if (version === 2) {
      expect(contents.metadataHash).toBeNull();
      expect(contents.metadataSignature).toBeNull();
    } else {
      expect(contents.metadataHash).toHaveLength(48);
      expect(contents.metadataSignature).toHaveLength(384);
    }
  });

  it.each(filesBesideRecords)("%s holds the hashes recomputed from its record file", (path) => {
    const contents = readSignatureFile(path, readReal(path));
    const expected = signedHashes(contents.version, readRecordFor(path));
    expect(Buffer.from(contents.fileHash).toString("hex")).toBe(expected.fileHash.toString("hex"));
    expect(contents.metadataHash && Buffer.from(contents.metadataHash).toString("hex")).toBe(
      expected.metadataHash?.toString("hex") ?? null,
    );
  });

  it("reads the v6 fields the protobuf decoder sees", () => {
    const path = "v6/record0.0.5/2022-07-13T08_46_11.304284003Z.rcd_sig";
    const bytes = readReal(path);
    const decoded = proto.SignatureFile.decode(bytes.subarray(1));
    const contents = readSignatureFile(path, bytes);
    expect(Buffer.from(contents.fileSignature)).toEqual(Buffer.from(decoded.fileSignature!.signature!));
    expect(Buffer.from(contents.metadataHash!)).toEqual(
      Buffer.from(decoded.metadataSignature!.hashObject!.hash!),
    );
  });

  it("reads old balance-file signatures, which use the v2 form over the plain file hash", () => {
    const folder = "balances/v1/balance0.0.3/";
    for (const path of listReal(folder, ".csv_sig")) {
      const contents = readSignatureFile(path, readReal(path));
      expect(contents.version).toBe(2);
      const csv = readReal(path.replace(/_sig$/, ""));
      expect(Buffer.from(contents.fileHash).toString("hex")).toBe(sha384(csv).toString("hex"));
    }
  });
});

describe("readSignatureFile on malformed input", () => {
  it("refuses an empty file and an unknown first byte", () => {
    expect(corruptMessage("empty.rcd_sig", new Uint8Array())).toMatch(/empty\.rcd_sig: empty signature file/);
    expect(corruptMessage("seven.rcd_sig", Uint8Array.of(7, 0, 0))).toMatch(
      /first byte is 7, expected 4, 5 or 6/,
    );
  });

  it.each(filesBesideRecords.filter((path) => path.includes("0.0.3/")))(
    "refuses %s truncated by one byte or with one byte appended",
    (path) => {
      const bytes = readReal(path);
      expect(corruptMessage(path, bytes.subarray(0, bytes.length - 1))).toContain(path);
      expect(corruptMessage(path, Buffer.concat([bytes, Uint8Array.of(0)]))).toContain(path);
    },
  );

  it("names the bad field of a v2 file", () => {
    const bytes = readReal("v2/record0.0.3/2019-08-30T18_10_00.419072Z.rcd_sig");
    const badType = Buffer.from(bytes);
    badType[49] = 9;
    expect(corruptMessage("a.rcd_sig", badType)).toMatch(/signature type byte is 9, expected 3/);
    const tooLong = Buffer.from(bytes);
    tooLong.writeInt32BE(385, 50);
    expect(corruptMessage("a.rcd_sig", tooLong)).toMatch(/file signature length is 385, expected 1 to 384/);
  });

  it("names the bad field of a v5 file", () => {
    const bytes = readReal("v5/record0.0.3/2021-01-11T22_09_24.063739000Z.rcd_sig");
    // Offsets: version byte 0, stream signature version 1, file hash object 5 (class id, class version 13,
    // digest type 17, length 21, digest 25), file signature object 73 (class id, class version 81, type 85,
    // length 89, checksum 93, bytes 97).
    const cases: [offset: number, value: number, message: RegExp][] = [
      [1, 2, /object stream signature version is 2, expected 1/],
      [17, 7, /file hash digest type is 7, expected 1493139739/],
      [21, 47, /file hash length is 47, expected 48/],
      [81, 2, /file signature class version is 2, expected 1/],
      [85, 2, /file signature type is 2, expected 1/],
      [93, 0, /file signature checksum is 0, expected -283/],
    ];
    for (const [offset, value, message] of cases) {
      const copy = Buffer.from(bytes);
      copy.writeInt32BE(value, offset);
      expect(corruptMessage("b.rcd_sig", copy)).toMatch(message);
    }
    const badClassId = Buffer.from(bytes);
    badClassId[76] = (badClassId[76] ?? 0) ^ 0x01;
    expect(corruptMessage("b.rcd_sig", badClassId)).toMatch(
      /file signature class id is 0x13dc4b389b245c69, expected 0x13dc4b399b245c69/,
    );
  });

  it("names the bad field of a v6 file", () => {
    const real = proto.SignatureFile.decode(
      readReal("v6/record0.0.3/2022-07-13T08_46_08.041986003Z.rcd_sig").subarray(1),
    );
    const encode = (file: proto.ISignatureFile) =>
      Buffer.concat([Uint8Array.of(6), proto.SignatureFile.encode(file).finish()]);
    const fileSignature = real.fileSignature!;
    const cases: [proto.ISignatureFile, RegExp][] = [
      [{ fileSignature }, /metadata signature: missing/],
      [
        { fileSignature: { ...fileSignature, type: 0 }, metadataSignature: fileSignature },
        /file signature: type is 0/,
      ],
      [
        { fileSignature: { ...fileSignature, length: 383 }, metadataSignature: fileSignature },
        /length field is 383 but the signature is 384 bytes/,
      ],
      [
        { fileSignature, metadataSignature: { ...fileSignature, checksum: 0 } },
        /metadata signature: checksum is 0, expected -283/,
      ],
      [
        { fileSignature: { ...fileSignature, hashObject: null }, metadataSignature: fileSignature },
        /hash object missing/,
      ],
      [
        {
          fileSignature: { ...fileSignature, hashObject: { ...fileSignature.hashObject, algorithm: 0 } },
          metadataSignature: fileSignature,
        },
        /hash algorithm is 0, expected SHA_384/,
      ],
    ];
    for (const [file, message] of cases) expect(corruptMessage("c.rcd_sig", encode(file))).toMatch(message);
    expect(corruptMessage("d.rcd_sig", Uint8Array.of(6, 0x0a, 0xff))).toMatch(
      /d\.rcd_sig: undecodable SignatureFile protobuf/,
    );
  });
});
