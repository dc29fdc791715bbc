import type { Config } from '../config.ts';
import type { CheckResult } from '../doctor/check-result.ts';
import { platformModules } from './registry.ts';

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
