/**
 * Doctor's check of RAGENT_HANDOFF_DISCORD: a role must exist in a server the bot is in, and be
 * mentionable — by its "Allow anyone to @mention this role" setting, or because the bot has the
 * Mention Everyone permission there — or the hand-off line pings nobody. Asked of Discord itself
 * (`GET /users/@me/guilds`, `/guilds/{id}/roles`, the bot's member), with the bot token, at Discord's
 * own API address only (or DISCORD_API_URL). A person (`user:<id>`) can always be mentioned.
 */
import type { Config } from '../../config.ts';
import type { CheckResult } from '../../doctor/check-result.ts';
import { probe } from '../../doctor/http-probe.ts';

const title = 'Discord hand-off';
/** Discord's MENTION_EVERYONE and ADMINISTRATOR permission bits. */
const mentionEveryone = 1n << 17n;
const administrator = 1n << 3n;

interface Role {
  id: string;
  name: string;
  mentionable: boolean;
  permissions: string;
}

export async function checkDiscordHandOff(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const { handOff, token, applicationId } = config.discord;
  const roleId = /^role:(\d+)$/.exec(handOff ?? '')?.[1];
  if (!roleId || !token) return [];
  const api = `${config.discord.apiUrl ?? 'https://discord.com/api'}/v10`;
  const get = async (route: string) => {
    const outcome = await probe(`${api}${route}`, { timeoutMs, headers: { authorization: `Bot ${token}` } });
    if (outcome.kind === 'unreachable') throw new Error(outcome.reason);
    if (outcome.status !== 200) throw new Error(`HTTP ${outcome.status} for ${route.split('/')[1]}`);
    return outcome.body;
  };
  try {
    const guilds = (await get('/users/@me/guilds')) as Array<{ id: string; name: string }>;
    for (const guild of guilds) {
      const roles = (await get(`/guilds/${guild.id}/roles`)) as Role[];
      const role = roles.find((each) => each.id === roleId);
      if (!role) continue;
      if (role.mentionable)
        return [{ title, status: 'pass', detail: `role @${role.name} in ${guild.name} can be mentioned` }];
      const member = (await get(`/guilds/${guild.id}/members/${applicationId}`)) as { roles?: string[] };
      const permissions = roles
        .filter((each) => each.id === guild.id || member.roles?.includes(each.id))
        .reduce((bits, each) => bits | BigInt(each.permissions), 0n);
      if ((permissions & (mentionEveryone | administrator)) !== 0n)
        return [
          { title, status: 'pass', detail: `role @${role.name} in ${guild.name}: the bot may mention it` },
        ];
      return [
        {
          title,
          status: 'warn',
          detail: `role @${role.name} in ${guild.name} cannot be mentioned by the bot: the hand-off line would ping nobody`,
          fix: [
            'Server Settings → Roles → the role → turn on "Allow anyone to @mention this role",',
            'or give the bot\'s role the "Mention @everyone, @here, and All Roles" permission.',
          ],
        },
      ];
    }
    return [
      {
        title,
        status: 'warn',
        detail: `RAGENT_HANDOFF_DISCORD=${handOff}: no server the bot is in has this role`,
        fix: ['Copy the role id again (Developer Mode on, Server Settings → Roles → ⋯ → Copy Role ID).'],
      },
    ];
  } catch (error) {
    return [
      {
        title,
        status: 'warn',
        detail: `could not ask Discord about ${handOff} (${(error as Error).message})`,
      },
    ];
  }
}
