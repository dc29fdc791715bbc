/** The permissions ragent needs in a server, and the URL that invites it with exactly those. */
import { PermissionFlagsBits } from 'discord.js';

export const requiredPermissions = {
  'View Channels': PermissionFlagsBits.ViewChannel,
  'Send Messages': PermissionFlagsBits.SendMessages,
  'Create Public Threads': PermissionFlagsBits.CreatePublicThreads,
  'Send Messages in Threads': PermissionFlagsBits.SendMessagesInThreads,
  'Embed Links': PermissionFlagsBits.EmbedLinks,
  'Read Message History': PermissionFlagsBits.ReadMessageHistory,
} as const;

export const requiredPermissionBits: bigint = Object.values(requiredPermissions).reduce(
  (all, bit) => all | bit,
  0n,
);

export function inviteUrl(applicationId: string): string {
  const query = new URLSearchParams({
    client_id: applicationId,
    scope: 'bot applications.commands',
    permissions: requiredPermissionBits.toString(),
  });
  return `https://discord.com/oauth2/authorize?${query.toString()}`;
}
