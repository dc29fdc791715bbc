/**
 * The person behind a command or a button press, as the platform vouches for them (from its signed
 * payload, never from text). The core asks it who may do what, so every admin check is written once,
 * in the command or action, while the platform answers it its own way: Slack asks for the user's
 * workspace role, Discord reads the member's permissions sent with the interaction, and both accept
 * the users listed in RAGENT_ADMINS.
 */
export interface Actor {
  /** The platform's user id, as documents, votes and verified answers record it. */
  readonly id: string;
  /** Their display name, shown as text (never as a mention). */
  readonly name: string;
  /** Whether they may manage the workspace's or server's documents and settings. */
  managesPlace(): Promise<boolean>;
  /**
   * Whether they may manage this channel's documents and settings (Discord: Manage Channels; where the
   * platform has no such role, the same as `managesPlace`).
   */
  managesChannel(): Promise<boolean>;
}

/**
 * An actor whose platform roles are asked at most once each (a command or press asks several times),
 * and who manages everything when listed in RAGENT_ADMINS (`admins`): operators who hold no platform role.
 * Without a channel role of its own, managing the place is what manages a channel.
 */
export function platformActor(
  person: { id: string; name: string; platformId: string },
  admins: readonly string[],
  roles: { managesPlace(): Promise<boolean>; managesChannel?(): Promise<boolean> },
): Actor {
  const listed = admins.includes(person.platformId);
  const once = (ask: () => Promise<boolean>) => {
    let answer: Promise<boolean> | undefined;
    return () => {
      answer ??= listed ? Promise.resolve(true) : ask();
      return answer;
    };
  };
  const managesPlace = once(() => roles.managesPlace());
  const managesChannel = roles.managesChannel
    ? once(async () => (await managesPlace()) || (await roles.managesChannel?.()) === true)
    : managesPlace;
  return { id: person.id, name: person.name, managesPlace, managesChannel };
}
