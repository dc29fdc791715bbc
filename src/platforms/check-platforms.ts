import type { Config } from '../config.ts';
import type { CheckResult } from '../doctor/check-result.ts';
import { platformModules } from './registry.ts';

/** What each configured platform says of itself (its granted permissions, the hand-off target), asked of its own API. */
export async function checkPlatformsOnline(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const results = await Promise.all(
    platformModules.map((platform) => platform.onlineDoctorChecks?.(config, timeoutMs) ?? []),
  );
  return results.flat();
}

/**
 * The settings of each configured chat platform (each platform's own checks). Only shapes are
 * checked here; the online checks above send a platform's token to that platform's own API only.
 * Doctor never prints a token.
 */
export function checkPlatforms(config: Config): CheckResult[] {
  const results = platformModules.flatMap((platform) => platform.doctorChecks(config));
  if (results.length > 0) return results;
  return [
    {
      title: 'Chat platforms',
      status: 'warn',
      detail: 'none configured: ragent start has nothing to connect to',
      fix: [
        ...platformModules.map((platform) => platform.doctorHint),
        'Meanwhile, talk to your documents locally with: npx ragent chat',
      ],
    },
  ];
}
