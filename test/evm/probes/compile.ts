/**
 * Compiles Probes.sol with the pinned solc (devDependency) into probes.json: each contract's initcode as lower-case
 * hex. Run `node --import tsx test/evm/probes/compile.ts`; the output is committed, tests never run solc.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import solc from "solc";

const here = fileURLToPath(new URL(".", import.meta.url));
const input = {
  language: "Solidity",
  sources: { "Probes.sol": { content: readFileSync(`${here}Probes.sol`, "utf8") } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "cancun",
    outputSelection: { "*": { "*": ["evm.bytecode.object"] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
};
const errors = (output.errors ?? []).filter((e) => e.severity === "error");
if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
const initcode: Record<string, string> = {};
for (const [name, contract] of Object.entries(output.contracts["Probes.sol"] ?? {})) {
  initcode[name] = contract.evm.bytecode.object;
}
writeFileSync(
  `${here}probes.json`,
  `${JSON.stringify({ compiler: `solc ${solc.version()}`, initcode }, null, 2)}\n`,
);
