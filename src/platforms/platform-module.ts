/**
 * What a chat platform is to the rest of ragent: one module per platform folder, listed in
 * `registry.ts`. Start-up, doctor, the CLI and the log scrubber go through these modules only, so a
 * new platform is one folder, one line in each registry and its tests — nothing else names it.
 *
 * The module itself is light: its settings need only zod, and `start` and the CLI subcommands load
 * the platform's SDK when first used (never for `ragent --help` or `docs list`).
 */
import type { Command } from 'commander';
import type { CliContext } from '../adapters/cli/cli-context.ts';
import type { Config } from '../config.ts';
import type { Services } from '../core/services.ts';
import type { ThreadId } from '../core/types.ts';
import type { CheckResult } from '../doctor/check-result.ts';
import type { RunningPlatform } from './running-platform.ts';

/** Whether `ragent start` starts the platform: yes, not set at all, or half set (what is missing). */
export type PlatformPlan = { start: true } | { start: false; incomplete?: string };

/** How a platform's own ids become ragent's thread ids and back. */
export interface PlatformIds {
  /** Whether `threadId` belongs to this platform. */
  owns(threadId: ThreadId): boolean;
  /** A link people can open to reach the thread (kept with each answer for the feedback export). */
  threadLink(threadId: ThreadId): string | undefined;
}

export interface PlatformModule {
  /** Lower case, as in thread ids, scopes and turn records (`slack`). */
  readonly name: string;
  /** As people write it (`Slack`). */
  readonly label: string;
  plan(config: Config): PlatformPlan;
  /** Doctor's checks of the platform's settings (none when it is not configured at all). */
  doctorChecks(config: Config): CheckResult[];
  /** Doctor's checks that ask the platform itself (the hand-off target exists and can be mentioned). */
  onlineDoctorChecks?(config: Config, timeoutMs: number): Promise<CheckResult[]>;
  /** The variables to set, for `ragent start` when no platform is configured (indented lines). */
  readonly setupHelp: readonly string[];
  /** One line for doctor when no platform is configured: what to set, where to read more. */
  readonly doctorHint: string;
  /** Subcommands under `ragent <name>` (e.g. registering commands), if the platform has any. */
  registerCommands?(program: Command, context: CliContext): void;
  /** Connects the platform to the services' turn runner; resolves once it takes events. */
  start(services: Services): Promise<RunningPlatform>;
  readonly ids: PlatformIds;
}
