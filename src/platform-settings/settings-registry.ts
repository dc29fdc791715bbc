/**
 * The chat platforms' parts of the configuration, one per platform (the settings half of
 * `registry.ts`: `config.ts` and the logger read these without loading any platform's code or SDK).
 * A new platform adds its settings here and its module in `registry.ts`.
 */
import { discordSettings } from './discord-settings.ts';
import { slackSettings } from './slack-settings.ts';

export const platformSettingsList = [slackSettings, discordSettings] as const;

/** `config.<platform>`: each platform's settings under its name. */
export type PlatformConfigs = {
  [Settings in (typeof platformSettingsList)[number] as Settings['name']]: ReturnType<Settings['read']>;
};

/** Every platform's token shapes, for the log scrubber. */
export const platformSecretPatterns: readonly RegExp[] = platformSettingsList.flatMap(
  (settings) => settings.secretPatterns,
);
