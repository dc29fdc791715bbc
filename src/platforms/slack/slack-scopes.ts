/**
 * The bot scopes of slack-app-manifest.yml and what each enables, so an app made from an older
 * manifest keeps working for what its scopes allow while `ragent doctor` and the start log say what
 * it lacks. Slack tells the scopes a token was granted in every Web API answer (`x-oauth-scopes`);
 * which events an app subscribed to no API tells, so those are named with the scopes they come with.
 */
import type { Grant, GrantKind } from '../../doctor/missing-grants.ts';

/** Every bot scope of slack-app-manifest.yml, in its order (and the events that come with it). */
export const slackScopes: readonly Grant[] = [
  { name: 'app_mentions:read', enables: 'answering @ragent mentions (event app_mention)' },
  {
    name: 'assistant:write',
    enables:
      'the agent surface: status with loading messages, suggested prompts (events assistant_thread_started, assistant_thread_context_changed)',
  },
  {
    name: 'channels:history',
    enables: 'follow-ups and reading a thread in public channels (event message.channels)',
  },
  { name: 'groups:history', enables: 'the same in private channels (event message.groups)' },
  { name: 'im:history', enables: 'direct messages and the agent view (events message.im, app_home_opened)' },
  { name: 'mpim:history', enables: 'group direct messages (event message.mpim)' },
  { name: 'chat:write', enables: 'posting answers, statuses and progress' },
  { name: 'commands', enables: '/ragent and the "Ask ragent" message shortcut' },
  { name: 'files:read', enables: 'ingesting files shared with ragent' },
  {
    name: 'users:read',
    enables: 'admin checks (/ragent forget, autoanswer, the Home tab report) and names in threads',
  },
  {
    name: 'usergroups:read',
    enables: "ragent doctor's check that RAGENT_HANDOFF_SLACK's user group exists",
  },
];

export const slackScopeKind: GrantKind = {
  title: 'Slack app scopes',
  subject: 'the Slack app',
  noun: 'scope',
  source: 'slack-app-manifest.yml',
  required: slackScopes,
  fix: 'Update the app from slack-app-manifest.yml (or add them under "OAuth & Permissions" → Bot Token Scopes and subscribe to the events named), then reinstall it to the workspace. Everything else keeps working meanwhile.',
};
