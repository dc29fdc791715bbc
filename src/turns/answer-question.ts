/**
 * The answer itself, once the thread's turn has come: files attached to the question are read first
 * (in the thread's order), then the question is answered over them and the rest; streamed text shows
 * a disguised link's real target from the first piece on, on every platform.
 */
import type { Place, ReplySurface } from '../core/chat-platform.ts';
import type { TurnResult } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import { readingFileText } from './messages-en.ts';
import { revealDisguisedLinks } from './reveal-disguised-links.ts';
import type { RunnableAnswer, RunnerContext, RunningJob } from './runner-context.ts';
import type { AnswerProgress } from './show-progress.ts';
import { readThreadFiles, withUnreadFiles } from './thread-files.ts';

export interface QuestionToAnswer {
  job: RunnableAnswer;
  running: RunningJob;
  surface: ReplySurface;
  /** The place with the thread's files among its scopes. */
  searched: Place;
  shown: AnswerProgress;
}

export async function answerQuestion(
  context: RunnerContext,
  question: QuestionToAnswer,
  log: Logger,
): Promise<TurnResult> {
  const { job, running, surface, searched, shown } = question;
  // Started: a stop can no longer release it to another replica.
  delete running.release;
  const unread = job.files?.length
    ? await readThreadFiles(
        context.ingestion,
        job.files,
        searched,
        (name) => shown.live.announce({ kind: 'working', line: readingFileText(name) }),
        log,
      )
    : [];
  const result = await context.conversations.handle({ ...searched, text: job.text }, shown.progress, {
    ...(surface.showText ? { onText: (text: string) => shown.live.write(revealDisguisedLinks(text)) } : {}),
    ...(job.readThread ? { readThread: job.readThread } : {}),
  });
  return withUnreadFiles(result, unread);
}
