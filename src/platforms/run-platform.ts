/**
 * The lifecycle every running platform shares, written once: once connected it logs that it started
 * and tells the threads a crash left without an outcome (no platform redelivers them); stopping goes
 * in the phases `running-platform.ts` describes. The platform gives only its own steps: how it stops
 * taking events at the source, and what it closes once the runner told the abandoned threads.
 */
import type { PlatformTurns } from '../core/chat-platform.ts';
import type { CheckResult } from '../doctor/check-result.ts';
import type { Logger } from '../logger.ts';
import type { RunningPlatform } from './running-platform.ts';

export interface PlatformSteps {
  name: string;
  /** As people write it, for the log (`Slack`). */
  label: string;
  turns: PlatformTurns;
  logger: Logger;
  /** What the start line says besides the platform (mode, bot, shards…). */
  started: Record<string, unknown>;
  /** What doctor would warn of in its settings, logged once at start (it starts all the same). */
  warnings?: readonly CheckResult[];
  /** How long `stop()` of this platform alone waits for its jobs (default 15 s; `ragent start` uses its own). */
  stopTimeoutMs?: number | undefined;
  /** Takes no new events at the source; may be called more than once. */
  stopTaking(): Promise<void>;
  /** Closes what stays open (gateway, REST, timers) after the drain; called once. */
  close(): Promise<void>;
}

export async function runPlatform(steps: PlatformSteps): Promise<RunningPlatform> {
  const { turns, logger, label } = steps;
  logger.info(steps.started, `${label} started`);
  for (const warning of steps.warnings ?? []) logger.warn({ fix: warning.fix }, warning.detail);
  await turns.tellOrphans();
  let closed: Promise<void> | undefined;
  const disconnect = () => {
    closed ??= (async () => {
      await steps.stopTaking();
      await steps.close();
      logger.info(`${label} stopped`);
    })();
    return closed;
  };
  return {
    name: steps.name,
    stopTaking: () => steps.stopTaking(),
    disconnect,
    stop: async () => {
      await steps.stopTaking();
      await turns.stop(steps.stopTimeoutMs ?? 15_000);
      await disconnect();
    },
  };
}
