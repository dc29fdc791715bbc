/**
 * `/ragent handoff target:@role` (Manage Server, or RAGENT_ADMINS): who follows up in this channel
 * when an answer gets 👎 or is not found — a role or a person, from Discord's own mentionable option
 * (so the kind is known: stored as `role:<id>` / `user:<id>`). Without a target the channel goes
 * back to RAGENT_HANDOFF_DISCORD. Stored as a channel setting of the channel's set (a thread's
 * parent), so every replica reads the same.
 */
import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import { setHandOffTarget } from '../../turns/hand-off.ts';
import { handOffClearedText, handOffDeniedText, handOffSetText } from '../../turns/messages-en.ts';
import { handOffTargetOption } from './command-definitions.ts';
import { isServerAdmin } from './discord-admins.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { channelScope, interactionSetChannel } from './discord-scopes.ts';
import { discordHandOffMention } from './hand-off-line.ts';

export async function runHandOffCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  // The reply shows the mention, but allows none: nobody is pinged by setting it.
  const say = (content: string) => interaction.editReply({ content, allowedMentions: noMentions });
  if (!isServerAdmin(context, interaction)) {
    await say(`⚠️ ${handOffDeniedText('a member with Manage Server')}`);
    return;
  }
  const option = interaction.options.get(handOffTargetOption);
  const target = option?.role
    ? `role:${option.role.id}`
    : option?.user
      ? `user:${option.user.id}`
      : option?.value !== undefined
        ? undefined
        : null;
  if (target === undefined) {
    await say('Pick a role or a person from the list.');
    return;
  }
  const setChannel = await interactionSetChannel(interaction.client, interaction);
  await setHandOffTarget(
    context.services.coordination,
    channelScope(interaction.guildId, setChannel),
    target,
  );
  const fallback = context.services.config.discord.handOff;
  const shown = (value: string | undefined) => (value ? discordHandOffMention(value)?.content : undefined);
  await say(target ? handOffSetText(shown(target) ?? target) : handOffClearedText(shown(fallback)));
}
