/** Who may run Slack's admin commands and actions: a workspace admin or owner, or a user in RAGENT_ADMINS. */

import { type Actor, platformActor } from '../../turns/actor.ts';
import type { SlackContext } from './slack-context.ts';

/** Whether Slack says the user is a workspace admin or owner (asked each time an actor is made: roles change). */
async function isWorkspaceAdmin(context: SlackContext, user: string): Promise<boolean> {
  const result = await context.client.users.info({ user });
  const profile = result.user as
    | { is_admin?: boolean; is_owner?: boolean; is_primary_owner?: boolean }
    | undefined;
  return Boolean(profile?.is_admin || profile?.is_owner || profile?.is_primary_owner);
}

/** The Slack user behind a command or an action; Slack has no channel-level admin role. */
export function slackActor(context: SlackContext, user: { id: string; name?: string }): Actor {
  const person = { id: user.id, name: user.name ?? user.id, platformId: user.id };
  return platformActor(person, context.services.config.admins, {
    managesPlace: () => isWorkspaceAdmin(context, user.id),
  });
}
