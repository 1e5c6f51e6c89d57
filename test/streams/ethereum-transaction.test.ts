import { Signature, Transaction, Wallet } from "ethers";
import { describe, expect, it } from "vitest";
import {
  decodeEthereumTransaction,
  hashWithCallData,
  twosComplement,
} from "../../src/streams/ethereum-transaction.ts";
import { keccak256 } from "../../src/streams/keccak.ts";

/** Known raw transactions: the public mirror node's and SDKs' parser test vectors, and EIP-155's example. */
const LONDON_RAW_TX =
  "02f87082012a022f2f83018000947e3a9eaf9bcc39e2ffa38eb30bf7a93feacbc181880de0b6b3a764000083123456c001a0df48f2efd10421811de2bfb125ab75b2d3c44139c4642837fb1fccce911fd479a01aaf7ae92bee896651dfc9d99ae422a296bf5d9f1ca49b2d96d82b79eb112d66";
const RAW_TX_TYPE_0 =
  "f864012f83018000947e3a9eaf9bcc39e2ffa38eb30bf7a93feacbc18180827653820277a0f9fbff985d374be4a55f296915002eec11ac96f1ce2df183adf992baa9390b2fa00c1e867cc960d9c74ec2e6a662b7908ec4c8cc9f3091e886bcefbeb2290fb792";
const RAW_TX_TYPE_1 =
  "01f85f01010a0a9400000000000000000000000000000000000000010a80c080a038ba8bdbcd8684ff089b8efaf7b5aaf2071a11ab01b6cc65757af79f1199f2efa0570b83f85d578427becab466ced52da857e2a9e48bf9ec5850cc2f541e9305e9";
const EIP155_DEMO =
  "f86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83";
const EIP155_DEMO_ADDRESS = "0x9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f";

const hex = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString("hex"));
const raw = (text: string) => Buffer.from(text, "hex");

describe("Ethereum transactions decoded from RLP", () => {
  it("reads an EIP-1559 transaction field by field", () => {
    const tx = decodeEthereumTransaction(raw(LONDON_RAW_TX))!;
    expect(tx.type).toBe(2);
    expect(hex(tx.chainId)).toBe("012a");
    expect(tx.nonce).toBe(2n);
    expect(hex(tx.maxPriorityFeePerGas)).toBe("2f");
    expect(hex(tx.maxFeePerGas)).toBe("2f");
    expect(tx.gasPrice).toBeNull();
    expect(tx.gasLimit).toBe(0x018000n);
    expect(hex(tx.toAddress)).toBe("7e3a9eaf9bcc39e2ffa38eb30bf7a93feacbc181");
    expect(tx.value).toBe(10n ** 18n);
    expect(hex(tx.callData)).toBe("123456");
    expect(hex(tx.accessList)).toBe("");
    expect(tx.signatureV).toBeNull();
    expect(tx.recoveryId).toBe(1);
    expect(hex(tx.signatureR)).toBe("df48f2efd10421811de2bfb125ab75b2d3c44139c4642837fb1fccce911fd479");
    expect(hex(tx.signatureS)).toBe("1aaf7ae92bee896651dfc9d99ae422a296bf5d9f1ca49b2d96d82b79eb112d66");
    expect(hex(tx.hash)).toBe(Transaction.from(`0x${LONDON_RAW_TX}`).hash!.slice(2));
  });

  it("reads a legacy transaction: chain id from v, recovery id from v's parity, v kept", () => {
    const tx = decodeEthereumTransaction(raw(RAW_TX_TYPE_0))!;
    expect(tx.type).toBe(0);
    expect(hex(tx.signatureV)).toBe("0277"); // 631 = 298 * 2 + 35
    expect(hex(tx.chainId)).toBe("012a");
    expect(tx.recoveryId).toBe(0);
    expect(tx.nonce).toBe(1n);
    expect(hex(tx.gasPrice)).toBe("2f");
    expect(tx.value).toBe(0n);
    expect(hex(tx.callData)).toBe("7653");
    expect(tx.accessList).toBeNull();
  });

  it("reads an EIP-2930 transaction", () => {
    const tx = decodeEthereumTransaction(raw(RAW_TX_TYPE_1))!;
    expect(tx.type).toBe(1);
    expect(hex(tx.chainId)).toBe("01");
    expect(hex(tx.gasPrice)).toBe("0a");
    expect(tx.maxFeePerGas).toBeNull();
    expect(tx.gasLimit).toBe(10n);
    expect(hex(tx.toAddress)).toBe("0000000000000000000000000000000000000001");
    expect(tx.value).toBe(10n);
    expect(hex(tx.callData)).toBe("");
    expect(tx.recoveryId).toBe(0);
  });

  it("agrees with ethers on EIP-155's example, whose sender ethers recovers from the signature", () => {
    const tx = decodeEthereumTransaction(raw(EIP155_DEMO))!;
    const parsed = Transaction.from(`0x${EIP155_DEMO}`);
    expect(parsed.from!.toLowerCase()).toBe(EIP155_DEMO_ADDRESS);
    expect(hex(tx.chainId)).toBe("01");
    expect(tx.nonce).toBe(9n);
    expect(tx.value).toBe(10n ** 18n);
    expect(`0x${hex(tx.hash)}`).toBe(parsed.hash);
    expect(`0x${hex(tx.hash)}`).toBe(`0x${hex(keccak256(raw(EIP155_DEMO)))}`);
  });

  it("reads an EIP-7702 transaction with its authorization list", () => {
    const wallet = new Wallet(`0x${"11".repeat(32)}`);
    const tx = Transaction.from({
      type: 4,
      chainId: 298,
      nonce: 7,
      gasLimit: 90_000,
      to: `0x${"00".repeat(19)}ee`,
      value: 0,
      data: "0xabcd",
      maxFeePerGas: 1000n,
      maxPriorityFeePerGas: 10n,
      accessList: [{ address: `0x${"00".repeat(19)}01`, storageKeys: [`0x${"00".repeat(32)}`] }],
      authorizationList: [
        {
          address: `0x${"ab".repeat(20)}`,
          nonce: 3n,
          chainId: 298n,
          signature: Signature.from({ r: `0x${"01".repeat(32)}`, s: `0x${"02".repeat(32)}`, yParity: 1 }),
        },
      ],
    });
    tx.signature = wallet.signingKey.sign(tx.unsignedHash);
    const decoded = decodeEthereumTransaction(raw(tx.serialized.slice(2)))!;
    expect(decoded.type).toBe(4);
    expect(decoded.nonce).toBe(7n);
    expect(hex(decoded.callData)).toBe("abcd");
    expect(decoded.recoveryId).toBe(tx.signature.yParity);
    expect(JSON.parse(decoded.authorizationList!)).toEqual([
      {
        chain_id: "0x012a",
        address: `0x${"ab".repeat(20)}`,
        nonce: "3",
        y_parity: 1,
        r: `0x${"01".repeat(32)}`,
        s: `0x${"02".repeat(32)}`,
      },
    ]);
    // The access list's content bytes: one [address, [key]] entry, its list header removed.
    expect(hex(decoded.accessList)).toBe(`f794${"0".repeat(38)}01e1a0${"0".repeat(64)}`);
    expect(Transaction.from(tx.serialized).from).toBe(wallet.address);
  });

  it("decodes nothing that is not a transaction of a known type and shape", () => {
    expect(decodeEthereumTransaction(new Uint8Array([0x02]))).toBeNull();
    expect(decodeEthereumTransaction(raw(`03${LONDON_RAW_TX.slice(2)}`))).toBeNull();
    expect(decodeEthereumTransaction(raw(LONDON_RAW_TX.slice(0, 40)))).toBeNull();
    // A legacy list of 8 items.
    expect(decodeEthereumTransaction(raw("c801010101010101 01".replace(" ", "")))).toBeNull();
  });

  it("rebuilds the hash of a transaction whose call data was offloaded to a file", () => {
    const wallet = new Wallet(`0x${"22".repeat(32)}`);
    const full = Transaction.from({
      type: 2,
      chainId: 298,
      nonce: 1,
      gasLimit: 50_000,
      to: `0x${"00".repeat(19)}ee`,
      data: "0xdeadbeef",
      maxFeePerGas: 5n,
      maxPriorityFeePerGas: 1n,
    });
    full.signature = wallet.signingKey.sign(full.unsignedHash);
    const stripped = full.clone();
    stripped.data = "0x";
    const strippedRaw = raw(stripped.serialized.slice(2));
    expect(hex(hashWithCallData(strippedRaw, raw("deadbeef")))).toBe(full.hash!.slice(2));
  });

  it("writes values as minimal two's-complement bytes", () => {
    expect(hex(twosComplement(0n))).toBe("00");
    expect(hex(twosComplement(128n))).toBe("0080");
    expect(hex(twosComplement(2n * 10n ** 19n))).toBe("01158e460913d00000");
  });
});
