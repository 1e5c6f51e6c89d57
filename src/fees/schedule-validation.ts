import type { RawSchedule } from "./schedule-codec.ts";

/**
 * The consensus node's checks of a new simple-fee schedule (`FeeScheduleUtils.isValid`, fees.md §3.5): the first
 * problem found, or null when the schedule is valid.
 */
export function validateSchedule(raw: RawSchedule): string | null {
  if (!raw.node) return "no node fee";
  if (!raw.network) return "no network fee";
  if (raw.network.multiplier < 1) return "network multiplier below 1";
  if (raw.services.length === 0) return "no services";
  const defined = new Set<string>();
  for (const extra of raw.extras) {
    const name = String(extra.name);
    if (BigInt(extra.fee) <= 0n) return `extra ${name} has no fee`;
    if (defined.has(name)) return `extra ${name} defined twice`;
    defined.add(name);
  }
  const referencesProblem = (
    refs: RawSchedule["extras"] | Array<{ name: string | number }>,
    where: string,
  ) => {
    const seen = new Set<string>();
    for (const ref of refs) {
      const name = String(ref.name);
      if (seen.has(name)) return `${where} references ${name} twice`;
      if (!defined.has(name)) return `${where} references undefined extra ${name}`;
      seen.add(name);
    }
    return null;
  };
  const nodeProblem = referencesProblem(raw.node.extras, "node fee");
  if (nodeProblem !== null) return nodeProblem;
  const serviceNames = new Set<string>();
  for (const service of raw.services) {
    if (serviceNames.has(service.name)) return `service ${service.name} defined twice`;
    serviceNames.add(service.name);
    if (service.schedule.length === 0) return `service ${service.name} has an empty schedule`;
    const functionalities = new Set<string>();
    for (const def of service.schedule) {
      const name = String(def.name);
      if (functionalities.has(name)) return `${name} appears twice in service ${service.name}`;
      functionalities.add(name);
      const problem = referencesProblem(def.extras, name);
      if (problem !== null) return problem;
    }
  }
  return null;
}
