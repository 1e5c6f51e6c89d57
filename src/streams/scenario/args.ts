/**
 * Typed reads of one YAML map from a scenario file, with errors that say where the problem is. Every key
 * read is remembered, so `done()` can reject keys the step does not know (a typo must not be ignored).
 */
import type { KeySpec } from "./keys.ts";
import { ScenarioError } from "./ledger.ts";
import { parseDurationNs } from "./pb.ts";

const TINYBARS_PER_HBAR = 100_000_000n;

export class Args {
  readonly where: string;
  private readonly map: Record<string, unknown>;
  private readonly used = new Set<string>();

  constructor(where: string, value: unknown) {
    if (value === null || value === undefined) value = {};
    if (typeof value !== "object" || Array.isArray(value))
      throw new ScenarioError(`${where}: expected a map`);
    this.where = where;
    this.map = value as Record<string, unknown>;
  }

  /** Whether the key is present; asking counts as reading it. */
  has(key: string): boolean {
    this.used.add(key);
    return this.map[key] !== undefined && this.map[key] !== null;
  }

  keys(): string[] {
    return Object.keys(this.map);
  }

  raw(key: string): unknown {
    this.used.add(key);
    return this.map[key];
  }

  fail(key: string, expected: string): never {
    throw new ScenarioError(
      `${this.where}.${key}: expected ${expected}, got ${JSON.stringify(this.map[key], jsonSafe)}`,
    );
  }

  str(key: string): string {
    const value = this.raw(key);
    if (typeof value === "string") return value;
    if (typeof value === "bigint" || typeof value === "number") return String(value);
    return this.fail(key, "a string");
  }

  optStr(key: string): string | undefined {
    return this.has(key) ? this.str(key) : undefined;
  }

  bool(key: string, fallback: boolean): boolean {
    const value = this.raw(key);
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "boolean") return this.fail(key, "true or false");
    return value;
  }

  bigint(key: string): bigint {
    const value = this.raw(key);
    if (typeof value === "bigint") return value;
    if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
    if (typeof value === "string" && /^-?\d+$/.test(value)) return BigInt(value);
    return this.fail(key, "an integer");
  }

  optBigint(key: string): bigint | undefined {
    return this.has(key) ? this.bigint(key) : undefined;
  }

  int(key: string): number {
    const value = this.bigint(key);
    if (value < -(2n ** 31n) || value >= 2n ** 31n) return this.fail(key, "a 32-bit integer");
    return Number(value);
  }

  /** An hbar amount: an integer of tinybars, or a string such as `"12.5 hbar"` or `"300 tinybar"`. */
  tinybars(key: string): bigint {
    const value = this.raw(key);
    if (typeof value === "string") {
      const match = /^(-?\d+(?:\.\d{1,8})?)\s*(hbar|ℏ|tinybar|tℏ)$/.exec(value.trim());
      if (match === null) return this.fail(key, 'tinybars or "<n> hbar"');
      if (match[2] === "tinybar" || match[2] === "tℏ") return BigInt(match[1]!);
      const [whole, fraction = ""] = match[1]!.split(".");
      const negative = whole!.startsWith("-");
      const units = BigInt(whole!) * TINYBARS_PER_HBAR;
      const part = BigInt(fraction.padEnd(8, "0"));
      return negative ? units - part : units + part;
    }
    return this.bigint(key);
  }

  /** Bytes written as text (UTF-8), or as `hex:0a1b...` / `base64:...`. */
  bytes(key: string): Uint8Array {
    return parseBytes(`${this.where}.${key}`, this.raw(key));
  }

  durationNs(key: string): bigint {
    const value = this.raw(key);
    if (typeof value !== "string") return this.fail(key, "a duration such as 3s or 90d");
    try {
      return parseDurationNs(value);
    } catch {
      return this.fail(key, "a duration such as 3s or 90d");
    }
  }

  list(key: string): unknown[] {
    const value = this.raw(key);
    if (!Array.isArray(value)) return this.fail(key, "a list");
    return value;
  }

  optList(key: string): unknown[] | undefined {
    return this.has(key) ? this.list(key) : undefined;
  }

  strList(key: string): string[] {
    return this.list(key).map((v, i) => {
      if (typeof v === "string") return v;
      if (typeof v === "bigint") return String(v);
      throw new ScenarioError(`${this.where}.${key}[${i}]: expected a string`);
    });
  }

  bigintList(key: string): bigint[] {
    return this.list(key).map((v, i) => {
      if (typeof v === "bigint") return v;
      if (typeof v === "number" && Number.isSafeInteger(v)) return BigInt(v);
      throw new ScenarioError(`${this.where}.${key}[${i}]: expected an integer`);
    });
  }

  sub(key: string): Args {
    return new Args(`${this.where}.${key}`, this.raw(key));
  }

  key(key: string): KeySpec {
    return parseKeySpec(`${this.where}.${key}`, this.raw(key));
  }

  /** Throws if the map holds a key that was never read. */
  done(): void {
    const unknown = Object.keys(this.map).filter((k) => !this.used.has(k));
    if (unknown.length > 0) throw new ScenarioError(`${this.where}: unknown key(s) ${unknown.join(", ")}`);
  }
}

/** A key spec: `alice`, `{ ed25519: k }`, `{ ecdsa: k }`, `{ keyList: [...] }`, `{ threshold: n, keys: [...] }`. */
export function parseKeySpec(where: string, value: unknown): KeySpec {
  if (typeof value === "string") return value;
  const args = new Args(where, value);
  let spec: KeySpec;
  if (args.has("ed25519")) spec = { ed25519: args.str("ed25519") };
  else if (args.has("ecdsa")) spec = { ecdsa: args.str("ecdsa") };
  else if (args.has("keyList")) {
    spec = { keyList: args.list("keyList").map((k, i) => parseKeySpec(`${where}.keyList[${i}]`, k)) };
  } else if (args.has("threshold")) {
    spec = {
      threshold: args.int("threshold"),
      keys: args.list("keys").map((k, i) => parseKeySpec(`${where}.keys[${i}]`, k)),
    };
  } else throw new ScenarioError(`${where}: expected a key name, ed25519, ecdsa, keyList or threshold`);
  args.done();
  return spec;
}

/** Bytes written as text (UTF-8), or as `hex:0a1b...` / `base64:...`. */
export function parseBytes(where: string, value: unknown): Uint8Array {
  if (typeof value !== "string") throw new ScenarioError(`${where}: expected text, hex:... or base64:...`);
  if (value.startsWith("hex:")) {
    const hex = value.slice(4);
    if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new ScenarioError(`${where}: bad hex`);
    return new Uint8Array(Buffer.from(hex, "hex"));
  }
  if (value.startsWith("base64:")) return new Uint8Array(Buffer.from(value.slice(7), "base64"));
  return new Uint8Array(Buffer.from(value, "utf8"));
}

function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
