/**
 * Where a private answer shows, on any platform: only to the asker. The reply replaces the private
 * message shown so far (the status) and continues in further private messages; what it carries
 * besides the reply (the note that only they see it, Share under an answer) is decided here, and the
 * platform renders it in its own syntax. A recorded private turn (`reopen`) is told the same way,
 * never in the channel.
 */
import type { Location, Reply, ReplySurface, Status } from '../core/chat-platform.ts';
import { privateAnswerFooterText, privateClarificationFooterText, shareButtonText } from './messages-en.ts';

/** What a private reply shows besides the reply itself. */
export interface PrivateReplyExtras {
  /** A short note under the reply (only the asker sees it; how to go on). */
  footer?: string;
  /** The Share action under an answer: its label, and the answer's id it shares. */
  share?: { label: string; answerId: string };
}

export function privateReplyExtras(reply: Reply): PrivateReplyExtras {
  if (reply.kind === 'answer')
    return { footer: privateAnswerFooterText, share: { label: shareButtonText, answerId: reply.answer.id } };
  if (reply.kind === 'clarification') return { footer: privateClarificationFooterText };
  return {};
}

/** The platform's private messages to the asker. */
export interface PrivateChannel<Message> {
  readonly location: Location;
  /** The reply as the platform's messages, the extras on the last. */
  render(reply: Reply, extras: PrivateReplyExtras): Message[];
  /** Edits the status (where the platform lets a private message be edited that often). */
  status?(status: Status): Promise<void>;
  /** Replaces the private message shown so far with `message`. */
  replace(message: Message): Promise<void>;
  /** Shows `message` as one more private message. */
  add(message: Message): Promise<void>;
}

export function privateSurface<Message>(channel: PrivateChannel<Message>): ReplySurface {
  return {
    location: channel.location,
    showStatus: async (status) => {
      await channel.status?.(status);
    },
    finish: async (reply) => {
      const [first, ...rest] = channel.render(reply, privateReplyExtras(reply));
      if (first) await channel.replace(first);
      for (const message of rest) await channel.add(message);
    },
  };
}
