/**
 * Runs a scenario file's steps through the simulator: it keeps the consensus clock (a fixed spacing with a
 * little deterministic jitter, plus any `wait`), and collects the stream items and a summary of the final
 * ledger for tests.
 */
import type { Scenario, ScenarioSettings } from "./scenario-file.ts";
import { Simulator, type StreamItem } from "./simulator.ts";
import { type LedgerSummary, type StepSummary, summarizeLedger } from "./summary.ts";

export type ScenarioRun = {
  settings: ScenarioSettings;
  /** One group per user transaction: its preceding children, then itself, in consensus order. */
  groups: StreamItem[][];
  summary: LedgerSummary;
};

/** Simulates every step of a scenario. Throws `ScenarioError` when a step cannot be simulated as written. */
export function runScenario(scenario: Scenario): ScenarioRun {
  const { settings } = scenario;
  const simulator = new Simulator({ seed: settings.seed, firstEntity: settings.firstEntity });
  const groups: StreamItem[][] = [];
  const steps: StepSummary[] = [];
  let clockNs = settings.startNs - settings.spacingNs;
  for (const [index, step] of scenario.steps.entries()) {
    if (step.kind === "wait") {
      clockNs += step.waitNs;
      continue;
    }
    // Jitter keeps nanoseconds irregular, as real consensus times are, while staying in order.
    clockNs +=
      settings.spacingNs + BigInt(Math.floor(simulator.nextRandom() * Number(settings.spacingNs / 4n)));
    const { items, summary } = simulator.apply({ ...step, index }, clockNs);
    groups.push(items);
    steps.push(summary);
  }
  return { settings, groups, summary: summarizeLedger(settings, simulator.ledger, steps) };
}
