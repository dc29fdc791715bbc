/**
 * `ragent doctor`'s check of a platform's default hand-off target (RAGENT_HANDOFF_<PLATFORM>): it must
 * exist and be mentionable, or the hand-off line would ping nobody. The platform looks it up in its
 * own API and says what it found; a lookup that fails is a warning, never a failure.
 */
import type { CheckResult } from '../doctor/check-result.ts';
import {
  type AskApi,
  type CheckLine,
  checkWithPlatformApi,
  type PlatformApi,
} from '../doctor/platform-api.ts';

export type TargetLookup = CheckLine & { status: 'pass' | 'warn' };

export async function checkHandOffTarget(
  api: PlatformApi,
  target: string,
  lookUp: (ask: AskApi) => Promise<TargetLookup>,
): Promise<CheckResult[]> {
  const cannotAsk = (reason: string) => ({
    status: 'warn' as const,
    detail: `could not ask ${api.label} about ${target} (${reason})`,
  });
  return [await checkWithPlatformApi(api, `${api.label} hand-off`, cannotAsk, lookUp)];
}
