/**
 * The lifecycle every running platform shares, written once: it connects (a failure worded as what
 * to fix), logs that it started and tells the threads a crash left without an outcome (no platform
 * redelivers them); stopping goes in the phases `running-platform.ts` describes. The platform gives
 * only its own steps: how it connects, how it stops taking events at the source, and what it closes
 * once the runner told the abandoned threads.
 */
import type { ChatPlatform, PlatformTurns } from '../core/chat-platform.ts';
import type { CheckResult } from '../doctor/check-result.ts';
import { type ConnectFailureWords, connectFailure } from './connect-failure.ts';
import type { RunningPlatform } from './running-platform.ts';

export interface PlatformSteps {
  /** The platform as attached to the runner (its name, its logger); its `stopTaking` is set here. */
  platform: ChatPlatform;
  /** As people write it, for the log (`Slack`). */
  label: string;
  turns: PlatformTurns;
  /**
   * Connects (listens, logs in); resolves with what the start line says besides the platform (mode,
   * bot, shards…). Where it fails, what was opened is closed (`close`) and the error says what to fix,
   * in the platform's words (`connect-failure.ts`).
   */
  connect(): Promise<Record<string, unknown>>;
  connectFailure: ConnectFailureWords;
  /** What doctor would warn of in its settings, logged once at start (it starts all the same). */
  warnings?: readonly CheckResult[];
  /** How long `stop()` of this platform alone waits for its jobs (default 15 s; `ragent start` uses its own). */
  stopTimeoutMs?: number | undefined;
  /**
   * Takes no new events at the source (closes what lets the platform send here), at a stop and when
   * this replica lost the state it shares with the others; run once, however often asked. Without
   * it, events still arriving once a stop began are told the bot is restarting.
   */
  stopTaking?(): Promise<void>;
  /** Closes what stays open (gateway, REST, timers) after the drain, or after a failed connect; called once. */
  close(): Promise<void>;
}

export async function runPlatform(steps: PlatformSteps): Promise<RunningPlatform> {
  const { platform, turns, label } = steps;
  const { logger } = platform;
  let stoppedTaking: Promise<void> | undefined;
  const stopTaking = () => {
    stoppedTaking ??= steps.stopTaking ? steps.stopTaking() : Promise.resolve(turns.stopTaking());
    return stoppedTaking;
  };
  if (steps.stopTaking) platform.stopTaking = stopTaking;
  let started: Record<string, unknown>;
  try {
    started = await steps.connect();
  } catch (error) {
    await steps.close();
    throw connectFailure(error, steps.connectFailure);
  }
  logger.info(started, `${label} started`);
  for (const warning of steps.warnings ?? []) logger.warn({ fix: warning.fix }, warning.detail);
  await turns.tellOrphans();
  let closed: Promise<void> | undefined;
  const disconnect = () => {
    closed ??= (async () => {
      await stopTaking();
      await steps.close();
      logger.info(`${label} stopped`);
    })();
    return closed;
  };
  return {
    name: platform.name,
    stopTaking,
    disconnect,
    stop: async () => {
      await stopTaking();
      await turns.stop(steps.stopTimeoutMs ?? 15_000);
      await disconnect();
    },
  };
}
