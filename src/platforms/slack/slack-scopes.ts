/**
 * The bot scopes of slack-app-manifest.yml and what each enables, so an app made from an older
 * manifest keeps working for what its scopes allow while `ragent doctor` and the start log say what
 * it lacks. Slack tells the scopes a token was granted in every Web API answer (`x-oauth-scopes`);
 * which events an app subscribed to no API tells, so those are named with the scopes they come with.
 */

export interface SlackScope {
  scope: string;
  /** What works only with it (and the events that come with it, to subscribe to as well). */
  enables: string;
}

/** Every bot scope of slack-app-manifest.yml, in its order. */
export const slackScopes: readonly SlackScope[] = [
  { scope: 'app_mentions:read', enables: 'answering @ragent mentions (event app_mention)' },
  {
    scope: 'assistant:write',
    enables:
      'the agent surface: status with loading messages, suggested prompts (events assistant_thread_started, assistant_thread_context_changed)',
  },
  {
    scope: 'channels:history',
    enables: 'follow-ups and reading a thread in public channels (event message.channels)',
  },
  { scope: 'groups:history', enables: 'the same in private channels (event message.groups)' },
  { scope: 'im:history', enables: 'direct messages and the agent view (events message.im, app_home_opened)' },
  { scope: 'mpim:history', enables: 'group direct messages (event message.mpim)' },
  { scope: 'chat:write', enables: 'posting answers, statuses and progress' },
  { scope: 'commands', enables: '/ragent and the "Ask ragent" message shortcut' },
  { scope: 'files:read', enables: 'ingesting files shared with ragent' },
  {
    scope: 'users:read',
    enables: 'admin checks (/ragent forget, autoanswer, the Home tab report) and names in threads',
  },
  {
    scope: 'usergroups:read',
    enables: "ragent doctor's check that RAGENT_HANDOFF_SLACK's user group exists",
  },
];

/** The manifest's scopes a token lacks, given the scopes Slack says it was granted. */
export function missingScopes(granted: readonly string[]): SlackScope[] {
  const have = new Set(granted.map((scope) => scope.trim()));
  return slackScopes.filter((entry) => !have.has(entry.scope));
}

/** `x-oauth-scopes` as Slack sends it: comma-separated, maybe with spaces. */
export function parseScopesHeader(header: string | null | undefined): string[] | undefined {
  if (header === null || header === undefined) return undefined;
  return header
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
}
