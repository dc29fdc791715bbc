/**
 * Doctor's check of RAGENT_HANDOFF_SLACK: the user group (or person) must exist, or the hand-off line
 * would mention nobody. It asks Slack itself (`usergroups.list`, which needs the usergroups:read scope;
 * `users.info` for a person), with the bot token, at Slack's own API address only (or SLACK_API_URL).
 */
import type { Config } from '../../config.ts';
import type { CheckResult } from '../../doctor/check-result.ts';
import { probe } from '../../doctor/http-probe.ts';

const title = 'Slack hand-off';

export async function checkSlackHandOff(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const { handOff, botToken, apiUrl } = config.slack;
  if (!handOff || !botToken) return [];
  const isGroup = handOff.startsWith('S');
  const method = isGroup ? 'usergroups.list' : 'users.info';
  const outcome = await probe(new URL(method, apiUrl ?? 'https://slack.com/api/').href, {
    timeoutMs,
    headers: { authorization: `Bearer ${botToken}` },
    body: isGroup ? {} : { user: handOff },
  });
  if (outcome.kind === 'unreachable')
    return [{ title, status: 'warn', detail: `could not ask Slack about ${handOff} (${outcome.reason})` }];
  const body = (outcome.body ?? {}) as {
    ok?: boolean;
    error?: string;
    usergroups?: Array<{ id?: string; handle?: string; date_delete?: number }>;
  };
  if (body.error === 'missing_scope')
    return [
      {
        title,
        status: 'warn',
        detail: `cannot check ${handOff}: the bot token lacks the usergroups:read scope`,
        fix: [
          'Add the usergroups:read bot scope under "OAuth & Permissions" and reinstall the app, so doctor can check the group.',
        ],
      },
    ];
  const group = body.usergroups?.find((each) => each.id === handOff && !each.date_delete);
  if (!body.ok || (isGroup && !group))
    return [
      {
        title,
        status: 'warn',
        detail: `RAGENT_HANDOFF_SLACK=${handOff}: no such ${isGroup ? 'user group' : 'user'} in this workspace${body.error ? ` (${body.error})` : ''}; the hand-off line would mention nobody`,
        fix: [
          'Copy the id again: the user group\'s page → ⋯ → "Copy group ID" (S…), or a profile → ⋯ → "Copy member ID".',
        ],
      },
    ];
  return [
    {
      title,
      status: 'pass',
      detail: isGroup ? `user group @${group?.handle ?? handOff} exists` : `${handOff} exists`,
    },
  ];
}
