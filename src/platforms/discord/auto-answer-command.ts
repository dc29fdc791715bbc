/**
 * `/ragent autoanswer state:on|off channel:` on Discord: questions posted in a channel — or new posts
 * in a forum — are answered without a mention. The channel defaults to the one the command runs in
 * (in a thread or a forum post: its parent), so a forum can be switched from inside one of its posts.
 *
 * Who may: Manage Channels in the channel the command runs in (a post: its forum), for that channel;
 * another channel named with `channel:` takes Manage Server (the member's permissions Discord sends
 * are this channel's); users in RAGENT_ADMINS always. The switch and the rule of what is answered are
 * the runner's (`turns/auto-answer.ts`, `turns/decide-turn.ts`).
 */
import { ChannelType, type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import { readAutoAnswer, setAutoAnswer } from '../../turns/auto-answer.ts';
import {
  autoAnswerDeniedText,
  autoAnswerSetText,
  autoAnswerStatusText,
  autoAnswerUnknownChannelText,
} from '../../turns/messages-en.ts';
import { autoAnswerChannelOption, autoAnswerStateOption } from './command-definitions.ts';
import { isChannelAdmin, isServerAdmin } from './discord-admins.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { channelScope, interactionSetChannel } from './discord-scopes.ts';
import { autoAnswerNeedsContentText } from './discord-text.ts';

/** The kinds of channel whose messages or posts can be auto-answered. */
const answerableTypes: ReadonlySet<ChannelType> = new Set([
  ChannelType.GuildText,
  ChannelType.GuildForum,
  ChannelType.GuildAnnouncement,
]);

export async function runAutoAnswerCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const say = (content: string) => interaction.editReply({ content, allowedMentions: noMentions });
  const on = interaction.options.getString(autoAnswerStateOption, true) === 'on';
  const here = await interactionSetChannel(interaction.client, interaction);
  const chosen = interaction.options.get(autoAnswerChannelOption)?.value;
  const target = chosen === undefined ? here : String(chosen);
  const allowed =
    target === here ? isChannelAdmin(context, interaction) : isServerAdmin(context, interaction);
  if (!allowed) {
    await say(
      `⚠️ ${autoAnswerDeniedText(target === here ? 'a member with Manage Channels' : 'a member with Manage Server')}`,
    );
    return;
  }
  if (target !== here) {
    // Only a channel of this server, of a kind whose posts can be answered.
    const channel = await interaction.client.channels.fetch(target).catch(() => null);
    const inServer = channel && 'guildId' in channel && channel.guildId === interaction.guildId;
    if (!channel || !inServer || !answerableTypes.has(channel.type)) {
      await say(`⚠️ ${autoAnswerUnknownChannelText}`);
      return;
    }
  }
  const changed = await setAutoAnswer(context.services.coordination, {
    channel: channelScope(interaction.guildId, target),
    on,
    user: interaction.user.id,
    logger: context.logger,
  });
  const unreadable = on && !context.services.config.discord.messageContentIntent;
  await say(
    `${autoAnswerSetText(`<#${target}>`, on, changed)}${unreadable ? `\n${autoAnswerNeedsContentText}` : ''}`,
  );
}

/** `text` with this channel's auto-answer line under it (`/ragent docs` and `help` in a server). */
export async function withAutoAnswerStatus(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction,
  text: string,
): Promise<string> {
  if (!interaction.inGuild()) return text;
  const channel = await interactionSetChannel(interaction.client, interaction);
  const on = await readAutoAnswer(
    context.services.coordination,
    channelScope(interaction.guildId, channel),
    context.logger,
  );
  const unreadable = on && !context.services.config.discord.messageContentIntent;
  return `${text}\n\n${autoAnswerStatusText(on, '`/ragent autoanswer state:`')}${unreadable ? `\n${autoAnswerNeedsContentText}` : ''}`;
}
