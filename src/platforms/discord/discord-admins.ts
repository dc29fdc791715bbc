/**
 * Who may run Discord's admin commands and actions: members with the permission Discord itself uses for
 * the job, or a user listed in RAGENT_ADMINS (operators who are not server admins). Read from the
 * interaction each time, since Discord sends the member's permissions in this channel with every one.
 */
import { type BaseInteraction, PermissionFlagsBits } from 'discord.js';
import { type Actor, platformActor } from '../../turns/actor.ts';
import type { DiscordContext } from './discord-context.ts';

/**
 * The member behind an interaction: Manage Server manages the server, Manage Channels (in this
 * channel) the channel. Their id is recorded as `discord:<id>` where documents name an uploader
 * (`recordedId`), as Discord's commands have always stored it.
 */
export function discordActor(
  context: DiscordContext,
  interaction: BaseInteraction,
  recordedId: string,
): Actor {
  const { user, memberPermissions } = interaction;
  const person = { id: recordedId, name: user.globalName ?? user.username, platformId: user.id };
  return platformActor(person, context.services.config.admins, {
    managesPlace: async () => Boolean(memberPermissions?.has(PermissionFlagsBits.ManageGuild)),
    managesChannel: async () => Boolean(memberPermissions?.has(PermissionFlagsBits.ManageChannels)),
  });
}
