/**
 * Doctor's check of RAGENT_HANDOFF_SLACK (`answer-actions/check-hand-off-target.ts`): Slack is asked
 * whether the user group (`usergroups.list`, which needs the usergroups:read scope) or person
 * (`users.info`) exists, through its Web API (`slackApi`).
 */
import { checkHandOffTarget } from '../../answer-actions/check-hand-off-target.ts';
import type { Config } from '../../config.ts';
import type { CheckResult } from '../../doctor/check-result.ts';
import { slackApi } from './slack-doctor.ts';

export async function checkSlackHandOff(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const { handOff, botToken } = config.slack;
  if (!handOff || !botToken) return [];
  const isGroup = handOff.startsWith('S');
  return checkHandOffTarget(slackApi(config, timeoutMs), handOff, async (ask) => {
    const answer = await ask(isGroup ? 'usergroups.list' : 'users.info', isGroup ? {} : { user: handOff });
    const body = (answer.body ?? {}) as {
      ok?: boolean;
      error?: string;
      usergroups?: Array<{ id?: string; handle?: string; date_delete?: number }>;
    };
    if (body.error === 'missing_scope')
      return {
        status: 'warn',
        detail: `cannot check ${handOff}: the bot token lacks the usergroups:read scope`,
        fix: [
          'Add the usergroups:read bot scope under "OAuth & Permissions" and reinstall the app, so doctor can check the group.',
        ],
      };
    const group = body.usergroups?.find((each) => each.id === handOff && !each.date_delete);
    if (body.ok && (!isGroup || group))
      return {
        status: 'pass',
        detail: isGroup ? `user group @${group?.handle ?? handOff} exists` : `${handOff} exists`,
      };
    return {
      status: 'warn',
      detail: `RAGENT_HANDOFF_SLACK=${handOff}: no such ${isGroup ? 'user group' : 'user'} in this workspace${body.error ? ` (${body.error})` : ''}; the hand-off line would mention nobody`,
      fix: [
        'Copy the id again: the user group\'s page → ⋯ → "Copy group ID" (S…), or a profile → ⋯ → "Copy member ID".',
      ],
    };
  });
}
