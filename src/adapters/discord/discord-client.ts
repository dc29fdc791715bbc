/**
 * The discord.js client as ragent uses it: only the intents it needs (Message Content only when the
 * setting asks for it), DM channels as partials, no mentions parsed by default, and the REST/gateway
 * base URL from the config (a local fake Discord in tests).
 */
import { Client, GatewayIntentBits, Partials } from 'discord.js';
import type { Config } from '../../config.ts';

/** Sent with every message and edit: the bot never pings anyone, whatever the text says. */
export const noMentions = { parse: [], repliedUser: false } as const;

export function discordIntents(config: Config): GatewayIntentBits[] {
  const intents = [
    GatewayIntentBits.Guilds,
    GatewayIntentBits.GuildMessages,
    GatewayIntentBits.DirectMessages,
  ];
  if (config.discord.messageContentIntent) intents.push(GatewayIntentBits.MessageContent);
  return intents;
}

export function createDiscordClient(
  config: Config,
  options: { globalRequestsPerSecond?: number } = {},
): Client {
  return new Client({
    intents: discordIntents(config),
    partials: [Partials.Channel],
    allowedMentions: { parse: [], repliedUser: false },
    rest: {
      ...(config.discord.apiUrl ? { api: config.discord.apiUrl } : {}),
      ...(options.globalRequestsPerSecond
        ? { globalRequestsPerSecond: options.globalRequestsPerSecond }
        : {}),
    },
  });
}
