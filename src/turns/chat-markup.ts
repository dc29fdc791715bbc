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
   * A person credited by name where it pings nobody (e.g. a mention sent with no allowed
   * mentions). Unset: their name, bold and literal.
   */
  person?(person: { id: string; name: string }): string;
  /** A link with its text (default: the text, then the address). */
  link?(url: string, text: string): string;
  /**
   * A person or group as a stored setting names it (a hand-off target), shown in a private reply that
   * pings nobody; undefined when it is not one (default: as code).
   */
  mention?(target: string): string | undefined;
  /** Who added a document, from the uploader id documents record (never a ping); undefined: not shown. */
  uploader?(recordedId: string): string | undefined;
}
