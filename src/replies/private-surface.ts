/**
 * Where a private answer shows, on any platform: only to the asker. It is the one reply surface
 * (`replies/reply-surface.ts`) over the platform's private messages, so splitting, fallbacks, link
 * reveal and order are the core's; what a private reply carries besides the reply (the note that only
 * they see it, Share under an answer) is decided here, and the platform renders it in its own syntax.
 * No text streams: a platform's private messages take few edits (five in all, on one), so the answer
 * comes whole. A recorded private turn (`reopen`) is told the same way, never in the channel.
 */
import type { Reply, ReplySurface } from '../core/chat-platform.ts';
import {
  privateAnswerFooterText,
  privateClarificationFooterText,
  shareButtonText,
} from '../turns/messages-en.ts';
import type { ReplyPort } from './reply-port.ts';
import { replySurface } from './reply-surface.ts';

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

/**
 * The platform's private messages to the asker: a reply port (its status line and stream unused),
 * and how the extras join a reply's last message. `post` at index 0 shows the reply's first message
 * in place of what the asker was shown so far, where the platform can replace it.
 */
export interface PrivateReplyPort<Message> extends ReplyPort<Message> {
  withExtras(last: Message, extras: PrivateReplyExtras): Message;
}

/** `shown`: the private message the surface edits (the status), where the platform lets it be edited. */
export function privateSurface<Message>(
  port: PrivateReplyPort<Message>,
  shown: readonly string[] = [],
): ReplySurface {
  const { statusLine: _line, stream: _stream, withExtras, render, ...messages } = port;
  const reply = (given: Reply) => {
    const rendered = render.reply(given);
    const last = rendered.at(-1);
    if (last !== undefined) rendered[rendered.length - 1] = withExtras(last, privateReplyExtras(given));
    return rendered;
  };
  const surface = replySurface<Message>({ ...messages, render: { ...render, reply } }, shown);
  return {
    get location() {
      return surface.location;
    },
    showStatus: surface.showStatus,
    finish: surface.finish,
  };
}
