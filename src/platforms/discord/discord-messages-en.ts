/**
 * Discord's own sentences that are not errors (those are in `discord-error-messages-en.ts`): what
 * `ragent discord register` and `ragent discord invite` print.
 */

/** The registered commands as Discord shows them: a slash command `/name`, a context-menu entry quoted. */
function commandNames(names: readonly string[]): string {
  return names.map((name) => (name.includes(' ') ? `"${name}"` : `/${name}`)).join(', ');
}

/** `ragent discord register`: what was registered, where, and how to invite the bot. */
export function registeredCommandsText(
  names: readonly string[],
  where: { guildId: string } | 'global',
  inviteUrl: string,
): string {
  const scope =
    where === 'global'
      ? 'globally (every server the bot is in; Discord may take a few minutes to show it)'
      : `for server ${where.guildId} (available now)`;
  return `Registered ${commandNames(names)} ${scope}.\nInvite the bot with: ${inviteUrl}\n`;
}

/** `ragent discord invite`: the invite URL, then the permissions it asks for. */
export function inviteText(inviteUrl: string, permissions: readonly string[]): string {
  return `${inviteUrl}\nPermissions: ${permissions.join(', ')}.\n`;
}
