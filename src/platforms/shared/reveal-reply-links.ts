/**
 * The one point where a reply's model- or document-written text is prepared for any platform's
 * renderer: a disguised link (`[https://trusted.example](https://evil.example)`) shows its real
 * target before Slack or Discord turn it into a live masked link. Each platform's `renderReply`
 * calls this first, so no renderer of an answer or a clarification can skip it.
 */
import type { Reply } from '../../core/chat-platform.ts';
import { revealDisguisedLinks } from './reveal-disguised-links.ts';

export function revealReplyLinks(reply: Reply): Reply {
  switch (reply.kind) {
    case 'answer': {
      const { answer } = reply;
      return {
        ...reply,
        answer: {
          ...answer,
          body: revealDisguisedLinks(answer.body),
          markdown: revealDisguisedLinks(answer.markdown),
        },
      };
    }
    case 'clarification':
      return { ...reply, question: revealDisguisedLinks(reply.question) };
    default:
      return reply;
  }
}
