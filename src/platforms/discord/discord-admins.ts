/**
 * Who may run Discord's admin commands and actions: members with the permission Discord itself uses for
 * the job, or a user listed in RAGENT_ADMINS (operators who are not server admins). Asked from the
 * interaction each time, since Discord sends the member's permissions in this channel with every one.
 */
import { type BaseInteraction, PermissionFlagsBits } from 'discord.js';
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
