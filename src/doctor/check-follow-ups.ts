/**
 * Follow-ups without a mention (RAGENT_FOLLOW_UPS) need the text of every reply in a thread. Some
 * platforms show a bot only the messages that mention it unless its app was given a grant for the
 * rest (a privileged intent, a permission): then the doctor warns, worded once here. The platform
 * names the setting that says the grant is on and how to give it.
 */
import type { Config } from '../config.ts';
import type { CheckResult } from './check-result.ts';

export interface ReadsEveryReply {
  /** The setting that says the app was given the grant. */
  setting: string;
  on: boolean;
  /** How to give the grant (and what else needs it). */
  fix: readonly string[];
}

export function checkFollowUps(config: Config, label: string, grant: ReadsEveryReply): CheckResult[] {
  if (!config.followUps || grant.on) return [];
  return [
    {
      title: `${label} follow-ups`,
      status: 'warn',
      detail: `${grant.setting} is off: in a thread, ragent answers only replies that mention it (mentions and DMs work)`,
      fix: [...grant.fix, 'Or set RAGENT_FOLLOW_UPS=off to say it is meant this way.'],
    },
  ];
}
