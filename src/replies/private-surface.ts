/**
 * Where a private answer shows, on any platform: only to the asker. It is the one reply surface
 * (`replies/reply-surface.ts`) over the platform's private messages, so splitting, fallbacks, link
 * reveal and order are the core's; what a private reply carries besides the reply (the note that only
 * they see it, Share under an answer) is decided here, and the platform renders it in its own syntax.
 * No text streams: a platform's private messages take few edits (five in all, on one), so the answer
 * comes whole. A recorded private turn (`reopen`) is told the same way, never in the channel.
 *
 * A private message goes first through the platform's short-lived private reply (a command's response
 * URL, an interaction's webhook: it lives minutes and takes few posts, but can replace what it showed),
 * then, where that has expired or refuses it, through the platform's lasting private post if it has
 * one — never in the channel, which must not learn of the question.
 */
import type { Location, Reply, ReplySurface, Status } from '../core/chat-platform.ts';
import type { Logger } from '../logger.ts';
import {
  answerBelowText,
  privateAnswerFooterText,
  privateClarificationFooterText,
  shareButtonText,
} from '../turns/messages-en.ts';
import type { ReplyRendering } from './reply-port.ts';
import { replySurface } from './reply-surface.ts';

/**
 * The Share action under a private answer, described once: its label and the answer's id it shares.
 * The platform renders it as its own kind of button, with its own wire id (already posted in
 * channels, so never changed).
 */
export interface ShareButton {
  label: string;
  answerId: string;
}

/** What a private reply shows besides the reply itself. */
export interface PrivateReplyExtras {
  /** A short note under the reply (only the asker sees it; how to go on, or that it was shared). */
  footer?: string;
  /** The Share action under an answer. */
  share?: ShareButton;
}

export function privateReplyExtras(reply: Reply): PrivateReplyExtras {
  if (reply.kind === 'answer')
    return { footer: privateAnswerFooterText, share: { label: shareButtonText, answerId: reply.answer.id } };
  if (reply.kind === 'clarification') return { footer: privateClarificationFooterText };
  return {};
}

/**
 * How a private reply looks: as any reply, plus the two pieces its extras are made of, in the
 * platform's own syntax. The core decides which extras a reply carries and how they compose
 * (`withPrivateExtras`).
 */
export interface PrivateRendering<Message>
  extends Omit<ReplyRendering<Message>, 'streamingText' | 'leftoverNote'> {
  /** A short notice to the asker alone (an empty question, a refused Share), from the catalogue. */
  notice(text: string): Message;
  /** `message` with `note` in small print under it (left as it was where the note does not fit). */
  withSmallPrint(message: Message, note: string): Message;
  /** `message` with `button` in a row of its own under it (Share, the only button a private reply adds). */
  withButtonRow(message: Message, button: ShareButton): Message;
}

/** `last` with its extras: the button row under the reply, then the note in small print under all. */
export function withPrivateExtras<Message>(
  render: Pick<PrivateRendering<Message>, 'withSmallPrint' | 'withButtonRow'>,
  last: Message,
  { footer, share }: PrivateReplyExtras,
): Message {
  const withButtons = share ? render.withButtonRow(last, share) : last;
  return footer ? render.withSmallPrint(withButtons, footer) : withButtons;
}

/** The platform's private messages to the asker. */
export interface PrivateReplyPort<Message> {
  readonly logger: Logger;
  /** Where the asker is, recorded with the turn (never the short-lived reply's address). */
  location(): Location;
  readonly render: PrivateRendering<Message>;
  /**
   * Sends `message` through the short-lived private reply, in place of the last message it showed
   * (the status) where `replace`. False where there is none (a turn recorded before a restart) or it
   * has expired; throws where it refuses the message.
   */
  reply(message: Message, replace: boolean): Promise<boolean>;
  /** The lasting private post (seen by the asker alone), where the platform has one; throws if refused. */
  post?(message: Message): Promise<unknown>;
  /** Edits a message the short-lived reply shows (`shown`), where the platform lets it be edited. */
  edit?(id: string, message: Message): Promise<unknown>;
}

/** What the surface starts with. */
export interface PrivateStart {
  /** The messages shown already (the status) that the surface edits, where the platform can. */
  shown?: readonly string[];
  /**
   * Whether the reply's first message replaces what the short-lived reply shows (the status); it does
   * unless the status could not be shown there.
   */
  replaces?: boolean;
  /** A turn recorded before a restart: where no private way takes its reply, it fails. */
  recorded?: boolean;
}

/** Shows `first` (the private "working…") and returns the surface whose reply replaces it, where it can. */
export async function openPrivateSurface<Message>(
  port: PrivateReplyPort<Message>,
  first: Status,
): Promise<ReplySurface> {
  // Until a first message stands through the short-lived reply, there is nothing to replace.
  const replaces = await sendPrivately(port, port.render.status(first), { replace: false, fails: true });
  return privateSurface(port, { replaces });
}

export function privateSurface<Message>(
  port: PrivateReplyPort<Message>,
  start: PrivateStart = {},
): ReplySurface {
  const { withSmallPrint, withButtonRow, notice, ...render } = port.render;
  let replaces = start.replaces !== false;
  const surface = replySurface<Message>(
    {
      logger: port.logger,
      location: () => port.location(),
      post: async (message, index) => {
        // Only the reply's first message takes the place of the status, once; the rest follow it.
        const replace = replaces && index === 0;
        if (index === 0) replaces = false;
        await sendPrivately(port, message, { replace, fails: start.recorded === true && index === 0 });
        return '';
      },
      edit: async (id, message) => {
        if (!port.edit) throw new Error('a private message is not edited here');
        await port.edit(id, message);
      },
      // What was shown privately stays: the reply replaces it, or follows it.
      delete: async () => {},
      render: {
        ...render,
        streamingText: () => [],
        // Never shown: a private message is never deleted (it stays, and the reply follows it).
        leftoverNote: notice(answerBelowText),
        reply: (given) => {
          const rendered = render.reply(given);
          const last = rendered.at(-1);
          if (last !== undefined)
            rendered[rendered.length - 1] = withPrivateExtras(port.render, last, privateReplyExtras(given));
          return rendered;
        },
      },
    },
    start.shown ?? [],
  );
  return {
    get location() {
      return surface.location;
    },
    showStatus: surface.showStatus,
    finish: surface.finish,
  };
}

/**
 * Sends `message` to the asker alone: through the short-lived reply, else the lasting private post.
 * True when the short-lived reply took it. Where neither can, `fails` throws; else it is logged.
 */
async function sendPrivately<Message>(
  port: PrivateReplyPort<Message>,
  message: Message,
  { replace, fails }: { replace: boolean; fails: boolean },
): Promise<boolean> {
  const replied = await port.reply(message, replace).catch((error: unknown) => {
    if (!port.post) throw error;
    // Not the error itself: the failed request's address is the short-lived reply's, a credential.
    port.logger.info({ reason: (error as Error).message }, 'the short-lived private reply did not take it');
    return false;
  });
  if (replied) return true;
  if (port.post) await port.post(message);
  else if (fails)
    throw new Error('the short-lived private reply expired: the asker cannot be told privately');
  else port.logger.warn('a private reply came after the short-lived private reply expired; not shown');
  return false;
}
