/**
 * `ragent start`: builds the services, starts every chat platform whose credentials are configured,
 * and shuts down gracefully on SIGINT/SIGTERM, in this order whatever happens meanwhile:
 * stop taking events (every platform) → the turn runner drains work in flight (ONE bounded timeout
 * for all platforms) and tells abandoned threads (bounded; those it cannot tell keep their record,
 * so the next start tells them) → disconnect the platforms → close the services, the stores LAST.
 * The exit code is 0 when the stop did that; 1 when closing failed, or when the stop came because this
 * replica lost its shared database (`DATABASE_URL`). A second signal exits at once.
 */
import { mkdir } from 'node:fs/promises';
import type { Config } from '../../config.ts';
import type { Services } from '../../core/services.ts';
import { errorMessages } from '../../error-messages-en.ts';
import { describeError, diskFullAtStart, isRagentError, RagentError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { createServices } from '../../main.ts';
import { platformModules } from '../../platforms/registry.ts';
import type { RunningPlatform } from '../../platforms/running-platform.ts';

/** A platform module's name (`platforms/registry.ts`). */
export type PlatformName = string;

export type PlatformStarter = (services: Services) => Promise<RunningPlatform>;

/** Where shutdown signals come from (`process` in production). */
export interface SignalSource {
  on(event: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void): unknown;
  off(event: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void): unknown;
}

export interface StartBotDependencies {
  config: Config;
  logger: Logger;
  createServices?: (config: Config, logger: Logger) => Promise<Services>;
  platforms?: Record<PlatformName, PlatformStarter>;
  signals?: SignalSource;
  /** How long work in flight may take to finish after a signal, all platforms together (default 15 s). */
  drainTimeoutMs?: number;
  /** Called on a second signal (default `process.exit`). */
  exit?: (code: number) => void;
}

/** Which platforms have credentials, and what is half-configured (explained to the user). */
export interface PlatformPlan {
  start: PlatformName[];
  /** One sentence per half-configured platform: what is set, what is missing. */
  incomplete: string[];
}

export type StartResult =
  | { status: 'no-platform'; plan: PlatformPlan }
  | { status: 'running'; platforms: PlatformName[]; stop(): Promise<number>; stopped: Promise<number> };

export function planPlatforms(config: Config): PlatformPlan {
  const start: PlatformName[] = [];
  const incomplete: string[] = [];
  for (const platform of platformModules) {
    const plan = platform.plan(config);
    if (plan.start) start.push(platform.name);
    else if (plan.incomplete) incomplete.push(plan.incomplete);
  }
  return { start, incomplete };
}

export async function startBot(dependencies: StartBotDependencies): Promise<StartResult> {
  const { config, logger } = dependencies;
  const plan = planPlatforms(config);
  for (const problem of plan.incomplete) logger.warn(problem);
  if (plan.start.length === 0) return { status: 'no-platform', plan };

  const starters =
    dependencies.platforms ??
    Object.fromEntries(platformModules.map((platform) => [platform.name, platform.start]));
  const signals = dependencies.signals ?? process;
  const exit = dependencies.exit ?? ((code: number) => process.exit(code));
  const drainTimeoutMs = dependencies.drainTimeoutMs ?? 15_000;

  await ensureDataDir(config.dataDir);
  const services = await (dependencies.createServices ?? createServices)(config, logger).catch(
    (error: unknown) => {
      // SQLite reports a full disk as "disk I/O error" while opening (e.g. the checkpoints' WAL).
      throw diskFullAtStart(error, config.dataDir) ?? error;
    },
  );
  // The embedded index loads its search snapshot in the background; the bot answers meanwhile.
  services.warmUp?.();

  let phase: 'starting' | 'running' | 'stopping' = 'starting';
  let signalledWhileStarting = false;
  let stopping: Promise<number> | undefined;
  let adapters: RunningPlatform[] = [];
  let resolveStopped: (code: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => {
    resolveStopped = resolve;
  });

  const onSignal = (signal: NodeJS.Signals) => {
    if (phase === 'stopping' || signalledWhileStarting) {
      logger.warn({ signal }, 'second signal: exiting now without waiting for work in flight');
      exit(130);
      return;
    }
    logger.info({ signal }, 'stopping: no new work is taken; finishing work in flight');
    if (phase === 'starting') signalledWhileStarting = true;
    else void stop();
  };
  const removeSignalHandlers = () => {
    signals.off('SIGINT', onSignal);
    signals.off('SIGTERM', onSignal);
  };

  let lostDatabase = false;
  const stop = (): Promise<number> => {
    phase = 'stopping';
    stopping ??= shutDown({ adapters, services, logger, drainTimeoutMs }).then((closedCode) => {
      const code = lostDatabase ? 1 : closedCode;
      removeSignalHandlers();
      resolveStopped(code);
      return code;
    });
    return stopping;
  };

  signals.on('SIGINT', onSignal);
  signals.on('SIGTERM', onSignal);

  const started = await Promise.allSettled(
    plan.start.map((name) => {
      const starter = starters[name];
      return starter ? starter(services) : Promise.reject(new Error(`no starter for platform ${name}`));
    }),
  );
  adapters = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failure = started.find((outcome) => outcome.status === 'rejected');
  if (failure) {
    const reason: unknown = failure.reason;
    // A typed failure says what happened and what to do in one line; its stack would only bury that.
    if (isRagentError(reason)) {
      logger.error(
        { code: reason.code, ...reason.details },
        `a chat platform failed to start; stopping the others: ${reason.message}`,
      );
    } else logger.error({ err: reason }, 'a chat platform failed to start; stopping the others');
    await stop();
    throw failure.reason;
  }
  phase = 'running';
  logger.info({ platforms: plan.start, dataDir: config.dataDir }, 'ragent started');
  // Replicas: one that lost the shared database has stopped taking work (the turn runner saw to it);
  // it finishes what is in flight and exits 1, so its supervisor starts it again (a new liveness lock).
  services.coordination.onLost(() => {
    lostDatabase = true;
    logger.error('stopping this replica (exit 1): start it again once PostgreSQL is reachable');
    void stop();
  });
  // A signal that arrived while the adapters were starting: stop them now that they exist.
  if (signalledWhileStarting) void stop();
  return { status: 'running', platforms: plan.start, stop, stopped };
}

async function shutDown(parts: {
  adapters: RunningPlatform[];
  services: Services;
  logger: Logger;
  drainTimeoutMs: number;
}): Promise<number> {
  const { adapters, services, logger, drainTimeoutMs } = parts;
  let exitCode = 0;
  const eachAdapter = async (what: string, step: (adapter: RunningPlatform) => Promise<void>) => {
    await Promise.all(
      adapters.map(async (adapter) => {
        // A platform that went away must not keep the others (or the stores) from closing.
        const done = await withDeadline(
          step(adapter).catch((error: unknown) => {
            logger.warn({ err: error, platform: adapter.name }, `${what} failed`);
          }),
          Date.now() + platformStepTimeoutMs,
        );
        if (!done) logger.warn({ platform: adapter.name }, `${what} timed out`);
      }),
    );
  };
  await eachAdapter('stopping the platform', (adapter) => adapter.stopTaking());
  try {
    const report = await services.turns.stop(drainTimeoutMs);
    if (!report.drained) {
      logger.warn({ timeoutMs: drainTimeoutMs, ...report }, 'work in flight did not finish in time');
    }
  } catch (error) {
    logger.error({ err: error }, 'draining the work in flight failed');
  }
  await eachAdapter('disconnecting the platform', async (adapter) => {
    await adapter.disconnect();
    logger.info({ platform: adapter.name }, 'platform stopped');
  });
  try {
    // Last: the stores. Work the drain gave up on may still end its records until here.
    const closed = await withDeadline(services.close(), Date.now() + closeTimeoutMs);
    if (!closed) {
      exitCode = 1;
      logger.warn('closing the services timed out');
    }
  } catch (error) {
    exitCode = 1;
    logger.error({ err: error }, 'closing the services failed');
  }
  logger.info({ exitCode }, 'ragent stopped');
  return exitCode;
}

/** How long one platform may take to stop taking events, or to disconnect. */
const platformStepTimeoutMs = 2_000;
/** How long closing the services may take. */
const closeTimeoutMs = 5_000;

/** Resolves true when `work` settles before `deadline` (epoch ms), false otherwise. */
async function withDeadline(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function ensureDataDir(dataDir: string): Promise<void> {
  try {
    await mkdir(dataDir, { recursive: true });
  } catch (error) {
    throw new RagentError(
      'CONFIG_INVALID',
      errorMessages.CONFIG_INVALID.dataDirUncreatable({ dataDir, reason: describeError(error) }),
      { cause: error },
    );
  }
}
