/**
 * Doctor's check of RAGENT_HANDOFF_DISCORD (`answer-actions/check-hand-off-target.ts`): the role must
 * be in a server the bot is in, and be mentionable — by its own setting, or because the bot may
 * Mention Everyone there. Asked of Discord's own API (`discordApi`). A person (`user:<id>`) can always
 * be mentioned: not looked up.
 */
import { checkHandOffTarget } from '../../answer-actions/check-hand-off-target.ts';
import type { Config } from '../../config.ts';
import type { CheckResult } from '../../doctor/check-result.ts';
import { CannotAsk } from '../../doctor/platform-api.ts';
import { discordApi } from './discord-doctor.ts';

/** Discord's MENTION_EVERYONE and ADMINISTRATOR permission bits. */
const mayMentionRoles = (1n << 17n) | (1n << 3n);

interface Role {
  id: string;
  name: string;
  mentionable: boolean;
  permissions: string;
}

export async function checkDiscordHandOff(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const { handOff, token, applicationId } = config.discord;
  const roleId = /^role:(\d+)$/.exec(handOff ?? '')?.[1];
  if (!handOff || !roleId || !token) return [];
  return checkHandOffTarget(discordApi(config, timeoutMs), handOff, async (ask) => {
    const get = async (route: string) => {
      const answer = await ask(route);
      if (answer.status !== 200) throw new CannotAsk(`HTTP ${answer.status} for ${route.split('/')[0]}`);
      return answer.body;
    };
    for (const guild of (await get('users/@me/guilds')) as Array<{ id: string; name: string }>) {
      const roles = (await get(`guilds/${guild.id}/roles`)) as Role[];
      const role = roles.find((each) => each.id === roleId);
      if (!role) continue;
      const where = `role @${role.name} in ${guild.name}`;
      if (role.mentionable) return { status: 'pass', detail: `${where} can be mentioned` };
      const member = (await get(`guilds/${guild.id}/members/${applicationId}`)) as { roles?: string[] };
      const permissions = roles
        .filter((each) => each.id === guild.id || member.roles?.includes(each.id))
        .reduce((bits, each) => bits | BigInt(each.permissions), 0n);
      if ((permissions & mayMentionRoles) !== 0n)
        return { status: 'pass', detail: `${where}: the bot may mention it` };
      return {
        status: 'warn',
        detail: `${where} cannot be mentioned by the bot: the hand-off line would ping nobody`,
        fix: [
          'Server Settings → Roles → the role → turn on "Allow anyone to @mention this role",',
          'or give the bot\'s role the "Mention @everyone, @here, and All Roles" permission.',
        ],
      };
    }
    return {
      status: 'warn',
      detail: `RAGENT_HANDOFF_DISCORD=${handOff}: no server the bot is in has this role`,
      fix: ['Copy the role id again (Developer Mode on, Server Settings → Roles → ⋯ → Copy Role ID).'],
    };
  });
}
