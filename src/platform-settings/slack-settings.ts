/** Slack's part of the configuration (`config.slack`): tokens, and where the Web API and HTTP events are. */
import { z } from 'zod';
import {
  emptyToUndefined,
  optionalText,
  optionalUrl,
  platformSettings,
  token,
  wholeNumber,
} from '../config-fields.ts';

/** Slack shows at most four suggested prompts. */
export const maxSuggestedPrompts = 4;

/** `|`-separated prompts (none: drawn from the documents' titles), each at most 300 characters. */
const suggestedPrompts = () =>
  z.preprocess(
    (value) => {
      const cleaned = emptyToUndefined(value);
      return typeof cleaned === 'string'
        ? cleaned
            .split('|')
            .map((prompt) => prompt.trim())
            .filter(Boolean)
        : cleaned;
    },
    z
      .array(z.string().max(300, { error: 'each prompt must be at most 300 characters' }))
      .max(maxSuggestedPrompts, { error: `at most ${maxSuggestedPrompts} prompts (Slack shows no more)` })
      .default([]),
  );

export const slackSettings = platformSettings({
  name: 'slack',
  environment: {
    SLACK_BOT_TOKEN: token('xoxb-', 'a Slack bot token'),
    SLACK_APP_TOKEN: token('xapp-', 'a Slack app-level token'),
    SLACK_SIGNING_SECRET: optionalText(),
    SLACK_API_URL: optionalUrl(),
    SLACK_PORT: wholeNumber(3_000, 1, 65_535),
    RAGENT_SLACK_SUGGESTED_PROMPTS: suggestedPrompts(),
    RAGENT_HANDOFF_SLACK: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^[SUW][A-Z0-9]{2,}$/, { error: 'must be a Slack user group id (S…) or user id (U…)' })
        .optional(),
    ),
  },
  fixes: {
    SLACK_BOT_TOKEN: 'Copy the "Bot User OAuth Token" from your Slack app\'s "OAuth & Permissions" page.',
    SLACK_APP_TOKEN: 'Create an app-level token with the connections:write scope under "Basic Information".',
    RAGENT_SLACK_SUGGESTED_PROMPTS:
      'Write up to 4 prompts separated by |, e.g. "What is our leave policy?|How do I file expenses?".',
    RAGENT_HANDOFF_SLACK:
      "Copy the user group's id (S…) from its page in Slack (⋯ → Copy group ID), or a member's id (U…) from their profile.",
  },
  read: (env) => ({
    botToken: env.SLACK_BOT_TOKEN,
    appToken: env.SLACK_APP_TOKEN,
    signingSecret: env.SLACK_SIGNING_SECRET,
    apiUrl: env.SLACK_API_URL,
    port: env.SLACK_PORT,
    suggestedPrompts: env.RAGENT_SLACK_SUGGESTED_PROMPTS,
    /** Who follows up on a missed answer (RAGENT_HANDOFF_SLACK): a user group `S…` or a user `U…`. */
    handOff: env.RAGENT_HANDOFF_SLACK,
  }),
  secrets: (settings) => [settings.botToken, settings.appToken, settings.signingSecret],
  secretPatterns: [
    /xox[abposr]-[A-Za-z0-9-]{8,}/g,
    /xapp-[A-Za-z0-9-]{8,}/g,
    // Incoming webhooks and workflow triggers carry their secret in the URL: keep the path, drop it.
    /(hooks\.slack\.com\/(?:services|workflows|triggers|commands|actions)\/(?:[^/\s]+\/){0,2})[A-Za-z0-9_.-]{16,}/g,
  ],
});

export type SlackSettings = ReturnType<typeof slackSettings.read>;
