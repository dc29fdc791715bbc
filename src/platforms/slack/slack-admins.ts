/** Who may run Slack's admin commands and actions: a workspace admin or owner, or a user in RAGENT_ADMINS. */

import type { Actor } from '../../turns/actor.ts';
import type { SlackContext } from './slack-context.ts';

/**
 * Whether the user is listed in RAGENT_ADMINS or Slack says they are a workspace admin or owner (asked
 * each time: roles change).
 */
export async function isWorkspaceAdmin(context: SlackContext, user: string): Promise<boolean> {
  if (context.services.config.admins.includes(user)) return true;
  const result = await context.client.users.info({ user });
  const profile = result.user as
    | { is_admin?: boolean; is_owner?: boolean; is_primary_owner?: boolean }
    | undefined;
  return Boolean(profile?.is_admin || profile?.is_owner || profile?.is_primary_owner);
}

/** The Slack user behind a command or an action; Slack has no channel-level admin role. */
export function slackActor(context: SlackContext, user: { id: string; name?: string }): Actor {
  let admin: Promise<boolean> | undefined;
  const managesPlace = () => {
    admin ??= isWorkspaceAdmin(context, user.id);
    return admin;
  };
  return { id: user.id, name: user.name ?? user.id, managesPlace, managesChannel: managesPlace };
}
