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
