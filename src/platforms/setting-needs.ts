/**
 * Whether a platform's settings are complete, once for every platform: each need is met by any one of
 * its variables. None set: the platform is simply not used. Some set but a need unmet: it is half set —
 * `ragent start` says what is missing and doctor fails with the platform's own fix.
 */
import type { CheckResult } from '../doctor/check-result.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import type { PlatformPlan } from './platform-module.ts';

export interface SettingNeed {
  /** Its variables and their values: any one set meets the need. */
  variables: Readonly<Record<string, unknown>>;
  /** Doctor's fix when it is unmet. */
  fix: readonly string[];
}

export interface SettingNeeds {
  label: string;
  needs: readonly SettingNeed[];
  /** Variables not needed to start that still show the platform is meant to be used. */
  optional?: Readonly<Record<string, unknown>>;
}

const missingWords = (need: SettingNeed) => {
  const names = Object.keys(need.variables);
  return names.length === 1 ? `${names[0]} is not` : `neither ${names.join(' nor ')} is`;
};

const setNames = (variables: Readonly<Record<string, unknown>>) =>
  Object.keys(variables).filter((name) => Boolean(variables[name]));

/** What is set and the first unmet need; undefined when complete or nothing is set. */
function halfSet(settings: SettingNeeds): { said: string; need: SettingNeed; missing: string } | undefined {
  const set = [...settings.needs.map((need) => need.variables), settings.optional ?? {}].flatMap(setNames);
  const need = settings.needs.find((candidate) => setNames(candidate.variables).length === 0);
  if (set.length === 0 || !need) return undefined;
  return {
    said: `${set.join(' and ')} ${set.length === 1 ? 'is' : 'are'} set`,
    need,
    missing: missingWords(need),
  };
}

export function settingsPlan(settings: SettingNeeds): PlatformPlan {
  const half = halfSet(settings);
  if (half) return { start: false, incomplete: `${settings.label}: ${half.said}, but ${half.missing}.` };
  return settings.needs.every((need) => setNames(need.variables).length > 0)
    ? { start: true }
    : { start: false };
}

/** Doctor's frame: nothing when not set at all, the fix when half set, else the platform's own checks. */
export function checkSettings(settings: SettingNeeds, whenComplete: () => CheckResult[]): CheckResult[] {
  const half = halfSet(settings);
  if (half) {
    return [
      {
        title: settings.label,
        status: 'fail',
        detail: `${half.said} but ${half.missing}`,
        fix: [...half.need.fix],
      },
    ];
  }
  return settingsPlan(settings).start ? whenComplete() : [];
}

/** At start: the first unmet need as CONFIG_INVALID with its fix (`ragent start` starts only a complete one). */
export function requireSettings(settings: SettingNeeds): void {
  const need = settings.needs.find((candidate) => setNames(candidate.variables).length === 0);
  if (!need) return;
  const { label } = settings;
  const message = errorMessages.CONFIG_INVALID.settingMissing({
    label,
    missing: missingWords(need),
    fix: need.fix,
  });
  throw new RagentError('CONFIG_INVALID', message);
}
