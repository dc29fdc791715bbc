/**
 * Where a private answer shows, on any platform: only to the asker. It is the one reply surface
 * (`replies/reply-surface.ts`) over the platform's private messages, so splitting, fallbacks, link
 * reveal and order are the core's; what a private reply carries besides the reply (the note that only
 * they see it, Share under an answer) is decided here, and the platform renders it in its own syntax.
 * No text streams: a platform's private messages take few edits (five in all, on one), so the answer
 * comes whole. A recorded private turn (`reopen`) is told the same way, never in the channel.
 */
import type { Reply, ReplySurface } from '../core/chat-platform.ts';
import type { ReplyPort, ReplyRendering } from '../replies/reply-port.ts';
import { replySurface } from '../replies/reply-surface.ts';
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

/**
 * The platform's private messages to the asker: a reply port without a status line or stream, whose
 * replies carry the extras (on the last message). `post` at index 0 shows the reply's first message
 * in place of what the asker was shown so far, where the platform can replace it.
 */
export interface PrivateReplyPort<Message>
  extends Omit<ReplyPort<Message>, 'render' | 'statusLine' | 'stream'> {
  readonly render: Omit<ReplyRendering<Message>, 'reply' | 'streamingText'> & {
    reply(reply: Reply, extras: PrivateReplyExtras): Message[];
  };
}

/** `shown`: the private message the surface edits (the status), where the platform lets it be edited. */
export function privateSurface<Message>(
  port: PrivateReplyPort<Message>,
  shown: readonly string[] = [],
): ReplySurface {
  const { render } = port;
  const surface = replySurface<Message>(
    {
      ...port,
      render: {
        ...render,
        reply: (reply) => render.reply(reply, privateReplyExtras(reply)),
        // Never used: the surface below shows no text before the reply.
        streamingText: () => [],
      },
    },
    shown,
  );
  return {
    get location() {
      return surface.location;
    },
    showStatus: surface.showStatus,
    finish: surface.finish,
  };
}
