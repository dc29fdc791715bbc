/**
 * How a platform writes the few pieces of rich text that the core's command and action replies are
 * made of. The core (commands, answer actions, private asks) writes the words, from the messages
 * catalogue; the platform's markup only decides how a name, a title or a channel looks there. So a
 * reply is composed once, and Slack's mrkdwn or Discord's Markdown is one small object each.
 */
import type { PlatformTerms } from './messages-en.ts';

export interface ChatMarkup {
  /**
   * Untrusted text (a file name, a person's name, an error message) shown exactly as it is: never a
   * link, a mention or formatting.
   */
  literal(text: string): string;
  /** Bold text; `text` is already safe (literal or from the catalogue). */
  bold(text: string): string;
  /** Inline code (a command as people type it). */
  code(text: string): string;
  /** A link to a channel of this workspace or server, by the platform's own id (never a ping). */
  channel(id: string): string;
  /** The icon a reply starts with, by what it says. */
  readonly icons: Readonly<Record<'warning' | 'removed' | 'moved' | 'done', string>>;
  /** How people on this platform call its places, admins and commands. */
  readonly terms: PlatformTerms;
  /**
   * Who manages the whole workspace or server, where that is narrower than `terms.admin` (which also
   * names channel managers): said when an action needs the whole place (Verify).
   */
  readonly placeAdmin?: string;
}
