/** Slack as a platform module: its settings, plan, doctor check, set-up help, start and thread ids. */
import { decodeId } from '../../core/ids.ts';
import type { PlatformModule } from '../platform-module.ts';
import { settingsPlan } from '../setting-needs.ts';
import { checkSlackHandOff } from './hand-off-doctor.ts';
import { checkSlack, slackSettingNeeds } from './slack-doctor.ts';
import { slackThreadLink } from './slack-ids.ts';

export const slackModule: PlatformModule = {
  name: 'slack',
  label: 'Slack',
  plan: (config) => settingsPlan(slackSettingNeeds(config)),
  doctorChecks: checkSlack,
  // The granted scopes only when the settings look right, and the hand-off target; both loaded lazily
  // like the rest of the doctor's network checks.
  onlineDoctorChecks: async (config, timeoutMs) => [
    ...(checkSlack(config).some((result) => result.status === 'fail')
      ? []
      : await (await import('./slack-scope-check.ts')).checkSlackScopes(config, timeoutMs)),
    ...(await checkSlackHandOff(config, timeoutMs)),
  ],
  setupHelp: [
    '  Slack (Socket Mode: no public URL needed)',
    '    SLACK_BOT_TOKEN=xoxb-…   your Slack app → "OAuth & Permissions" → Bot User OAuth Token',
    '    SLACK_APP_TOKEN=xapp-…   your Slack app → "Basic Information" → App-Level Tokens (connections:write)',
    '    (HTTP mode instead: SLACK_SIGNING_SECRET from "Basic Information" → App Credentials)',
    '    Step by step: README.md, section "Connecting Slack".',
  ],
  doctorHint: 'Slack: set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (README, "Connecting Slack").',
  // Loaded when started: Bolt is heavy and other commands need none of it.
  start: async (services) => (await import('./start-slack.ts')).startSlack(services),
  ids: {
    owns: (threadId) => decodeId(threadId).platform === 'slack',
    threadLink: slackThreadLink,
  },
};
