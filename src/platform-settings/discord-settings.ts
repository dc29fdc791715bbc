/** Discord's part of the configuration (`config.discord`): the bot token, its application, intents and shards. */
import { z } from 'zod';
import {
  emptyToUndefined,
  flag,
  optionalText,
  optionalUrl,
  platformSettings,
  wholeNumber,
} from '../config-fields.ts';

/** A Discord id (a snowflake: an application, server, role or user): 15 to 22 digits. */
const snowflake = String.raw`\d{15,22}`;
export const discordIdPattern = new RegExp(`^${snowflake}$`);
/** A Discord hand-off target: `role:<id>` or `user:<id>` (which kind, then the id). */
export const discordHandOffPattern = new RegExp(`^(role|user):(${snowflake})$`);

export const discordSettings = platformSettings({
  name: 'discord',
  environment: {
    DISCORD_TOKEN: optionalText(),
    DISCORD_APPLICATION_ID: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(discordIdPattern, {
          error: 'must be the numeric application id from the Discord developer portal',
        })
        .optional(),
    ),
    DISCORD_API_URL: optionalUrl(),
    DISCORD_MESSAGE_CONTENT: flag(false),
    RAGENT_DISCORD_SHARDS: wholeNumber(1, 1, 1_024),
    RAGENT_HANDOFF_DISCORD: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(discordHandOffPattern, { error: 'must be role:<role id> or user:<user id>' })
        .optional(),
    ),
  },
  fixes: {
    DISCORD_APPLICATION_ID:
      'Copy the Application ID from the "General Information" page of your Discord application.',
    RAGENT_HANDOFF_DISCORD:
      'Write role:<id> for a role or user:<id> for a person (Developer Mode on, right-click → Copy ID).',
  },
  read: (env) => ({
    token: env.DISCORD_TOKEN,
    applicationId: env.DISCORD_APPLICATION_ID,
    apiUrl: env.DISCORD_API_URL,
    messageContentIntent: env.DISCORD_MESSAGE_CONTENT,
    /** Shard count of the bot (RAGENT_DISCORD_SHARDS). */
    shards: env.RAGENT_DISCORD_SHARDS,
    /** Who follows up on a missed answer (RAGENT_HANDOFF_DISCORD): `role:<id>` or `user:<id>`. */
    handOff: env.RAGENT_HANDOFF_DISCORD,
  }),
  secrets: (settings) => [settings.token],
  secretPatterns: [
    /[MNO][A-Za-z\d_-]{23,25}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,}/g,
    // Interaction and webhook tokens travel in URL paths: keep the path readable, drop the token.
    /(\/(?:webhooks|interactions)\/\d+\/)[A-Za-z0-9_.-]{16,}/g,
  ],
});

export type DiscordSettings = ReturnType<typeof discordSettings.read>;
