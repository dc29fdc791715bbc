/**
 * `ragent doctor`'s check of a platform's default hand-off target (RAGENT_HANDOFF_<PLATFORM>): it must
 * exist and be mentionable, or the hand-off line would ping nobody. The platform looks it up in its
 * own API and says what it found; a lookup that fails is a warning, never a failure.
 */
import type { CheckResult } from '../doctor/check-result.ts';

export type TargetLookup = Pick<CheckResult, 'detail' | 'fix'> & { status: 'pass' | 'warn' };

export async function checkHandOffTarget(
  label: string,
  target: string,
  lookUp: () => Promise<TargetLookup>,
): Promise<CheckResult[]> {
  const title = `${label} hand-off`;
  try {
    return [{ title, ...(await lookUp()) }];
  } catch (error) {
    const detail = `could not ask ${label} about ${target} (${(error as Error).message})`;
    return [{ title, status: 'warn', detail }];
  }
}
