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

const setNames = (variables: Readonly<Record<string, unknown>>) =>
  Object.keys(variables).filter((name) => Boolean(variables[name]));

/** The variables not set, in their order: what a command that needs them all says is missing. */
export const unsetNames = (variables: Readonly<Record<string, unknown>>) =>
  Object.keys(variables).filter((name) => !variables[name]);

/** The first unmet need (and how to say it is missing), and every variable set. */
function look(settings: SettingNeeds) {
  const set = [...settings.needs.map((need) => need.variables), settings.optional ?? {}].flatMap(setNames);
  const unmet = settings.needs.find((need) => setNames(need.variables).length === 0);
  const names = Object.keys(unmet?.variables ?? {});
  const missing = names.length === 1 ? `${names[0]} is not` : `neither ${names.join(' nor ')} is`;
  return { set, said: `${set.join(' and ')} ${set.length === 1 ? 'is' : 'are'} set`, unmet, missing };
}

export function settingsPlan(settings: SettingNeeds): PlatformPlan {
  const { set, said, unmet, missing } = look(settings);
  if (!unmet) return { start: true };
  return set.length === 0
    ? { start: false }
    : { start: false, incomplete: `${settings.label}: ${said}, but ${missing}.` };
}

/** Doctor's frame: nothing when not set at all, the fix when half set, else the platform's own checks. */
export function checkSettings(settings: SettingNeeds, whenComplete: () => CheckResult[]): CheckResult[] {
  const { set, said, unmet, missing } = look(settings);
  if (!unmet) return whenComplete();
  if (set.length === 0) return [];
  return [{ title: settings.label, status: 'fail', detail: `${said} but ${missing}`, fix: [...unmet.fix] }];
}

/** At start: the first unmet need as CONFIG_INVALID with its fix (`ragent start` starts only a complete one). */
export function requireSettings(settings: SettingNeeds): void {
  const { unmet, missing } = look(settings);
  if (!unmet) return;
  const { label } = settings;
  throw new RagentError(
    'CONFIG_INVALID',
    errorMessages.CONFIG_INVALID.settingMissing({ label, missing, fix: unmet.fix }),
  );
}
