import { describe, expect, it } from "vitest";
import { parseCommand, SERVE_USAGE } from "../../src/cli/args.ts";
import { type Config, ConfigError } from "../../src/config.ts";

const SERVE = ["serve", "--records", "/tmp/records", "--db", "/tmp/index.db"];

const opcodesOf = (args: string[], env: NodeJS.ProcessEnv = {}): Config["opcodes"] =>
  (parseCommand([...SERVE, ...args], env) as { config: Config }).config.opcodes;

describe("--opcodes (GET /contracts/results/{id}/opcodes)", () => {
  it("is off unless turned on by the flag or MIRRORLITE_OPCODES, the flag winning", () => {
    expect(opcodesOf([])).toBeUndefined();
    expect(opcodesOf(["--opcodes", "on"])).toBe(true);
    expect(opcodesOf(["--opcodes", "OFF"])).toBe(false);
    expect(opcodesOf([], { MIRRORLITE_OPCODES: "on" })).toBe(true);
    expect(opcodesOf(["--opcodes", "off"], { MIRRORLITE_OPCODES: "on" })).toBe(false);
  });

  it("refuses other values, and is in the serve help", () => {
    expect(() => opcodesOf(["--opcodes", "yes"])).toThrow(ConfigError);
    expect(SERVE_USAGE).toContain("--opcodes on|off");
    expect(SERVE_USAGE).toContain("MIRRORLITE_OPCODES");
  });
});
