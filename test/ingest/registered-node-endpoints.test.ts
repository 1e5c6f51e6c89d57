/**
 * How a registered node's endpoint addresses are written (upstream's Java `InetAddress` text): dotted IPv4,
 * IPv6 as eight uncompressed lower-case groups, an IPv4-mapped IPv6 address as its IPv4, other lengths none.
 */
import { describe, expect, it } from "vitest";
import { ipText } from "../../src/ingest/handlers/registered-node.ts";

const hex = (text: string) => Uint8Array.from(Buffer.from(text, "hex"));

describe("ipText", () => {
  it("writes addresses as Java does", () => {
    expect(ipText(hex("c0a8010a"))).toBe("192.168.1.10");
    expect(ipText(hex("00000000000000000000000000000001"))).toBe("0:0:0:0:0:0:0:1");
    expect(ipText(hex("20010db8000000000000000000000001"))).toBe("2001:db8:0:0:0:0:0:1");
    expect(ipText(hex("fe800000000000000202b3fffe1e8329"))).toBe("fe80:0:0:0:202:b3ff:fe1e:8329");
    expect(ipText(hex("00000000000000000000ffffc0a8010a"))).toBe("192.168.1.10");
    expect(ipText(hex("c0a801"))).toBeNull();
    expect(ipText(new Uint8Array())).toBeNull();
  });
});
