import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/cli/args.ts";
import { type Config, ConfigError } from "../../src/config.ts";

const SERVE = ["serve", "--records", "/tmp/records", "--db", "/tmp/index.db"];

const networkOf = (args: string[], env: NodeJS.ProcessEnv = {}): Config["network"] =>
  (parseCommand([...SERVE, ...args], env) as { config: Config }).config.network;

describe("--network (the EVM's chain id)", () => {
  it("is unset by default and takes the four names from the flag or MIRRORLITE_NETWORK, in any case", () => {
    expect(networkOf([])).toBeUndefined();
    expect(networkOf(["--network", "mainnet"])).toBe("mainnet");
    expect(networkOf(["--network", "TESTNET"])).toBe("testnet");
    expect(networkOf([], { MIRRORLITE_NETWORK: "previewnet" })).toBe("previewnet");
    expect(networkOf(["--network", "other"], { MIRRORLITE_NETWORK: "mainnet" })).toBe("other");
  });

  it("refuses any other name", () => {
    expect(() => networkOf(["--network", "devnet"])).toThrow(ConfigError);
  });
});
