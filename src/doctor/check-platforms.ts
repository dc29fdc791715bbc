import type { Config } from '../config.ts';
import { platformModules } from '../platforms/registry.ts';
import type { CheckResult } from './check-result.ts';

/**
 * The settings of each configured chat platform (each platform's own checks). Only shapes are
 * checked: doctor never sends a token anywhere, and never prints one.
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

/** The checks each configured platform makes by asking it (hand-off targets), in parallel. */
export async function checkPlatformsOnline(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const results = await Promise.all(
    platformModules.map(
      (platform) => platform.onlineDoctorChecks?.(config, timeoutMs) ?? Promise.resolve([]),
    ),
  );
  return results.flat();
}
