/**
 * Every chat platform ragent knows, one module each (see `platform-module.ts`); their settings are
 * listed apart in `src/platform-settings/settings-registry.ts`, so reading the configuration loads no platform code.
 * Start-up, doctor and the CLI go through this list: adding a platform is a folder and a line here.
 */
import { discordModule } from './discord/discord-module.ts';
import type { PlatformModule } from './platform-module.ts';
import { slackModule } from './slack/slack-module.ts';

export const platformModules: readonly PlatformModule[] = [slackModule, discordModule];

/** The module of a thread id (`slack:…`), if a platform owns it. */
export function platformOfThread(threadId: string): PlatformModule | undefined {
  return platformModules.find((platform) => platform.ids.owns(threadId));
}
