/**
 * Who may run Discord's admin commands and actions: members with the permission Discord itself uses for
 * the job, or a user listed in RAGENT_ADMINS (operators who are not server admins). Asked from the
 * interaction each time, since Discord sends the member's permissions in this channel with every one.
 */
import { type BaseInteraction, PermissionFlagsBits } from 'discord.js';
import type { Actor } from '../../turns/actor.ts';
import type { DiscordContext } from './discord-context.ts';

/** Manage Server, or listed in RAGENT_ADMINS. */
export function isServerAdmin(context: DiscordContext, interaction: BaseInteraction): boolean {
  return (
    isListedAdmin(context, interaction) ||
    Boolean(interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild))
  );
}

/** Manage Channels (in this channel) or Manage Server, or listed in RAGENT_ADMINS. */
export function isChannelAdmin(context: DiscordContext, interaction: BaseInteraction): boolean {
  return (
    isServerAdmin(context, interaction) ||
    Boolean(interaction.memberPermissions?.has(PermissionFlagsBits.ManageChannels))
  );
}

function isListedAdmin(context: DiscordContext, interaction: BaseInteraction): boolean {
  return context.services.config.admins.includes(interaction.user.id);
}

/**
 * The member behind an interaction. Their id is recorded as `discord:<id>` where documents name an
 * uploader (`recordedId`), as Discord's commands have always stored it.
 */
export function discordActor(
  context: DiscordContext,
  interaction: BaseInteraction,
  recordedId: string,
): Actor {
  return {
    id: recordedId,
    name: interaction.user.globalName ?? interaction.user.username,
    managesPlace: async () => isServerAdmin(context, interaction),
    managesChannel: async () => isChannelAdmin(context, interaction),
  };
}
