/**
 * The one point where a reply's model- or document-written text is prepared for any platform's
 * renderer: a disguised link (`[https://trusted.example](https://evil.example)`) shows its real
 * target before Slack or Discord turn it into a live masked link. The runner applies it to every
 * reply it delivers and to every piece of text it streams (`run-answer.ts`, `deliver-reply.ts`);
 * each platform's `renderReply` applies it again, so no renderer can skip it.
 */
import type { Reply } from '../core/chat-platform.ts';
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
    case 'cut-off':
      return { ...reply, text: revealDisguisedLinks(reply.text) };
    default:
      return reply;
  }
}
