/**
 * Prints an answer in the terminal as it is written, then completes it with what the final result
 * adds (its sources). A terminal cannot take text back: when the streamed text is taken back or the
 * final answer differs from what was printed, the final answer is printed whole after it.
 */
import type { StreamedTextKind, TurnResult } from '../../core/types.ts';

export interface StreamPrinter {
  /** For `Conversations.handle`'s `onText`. */
  write(textSoFar: string, kind?: StreamedTextKind): void;
  /** Whether any text was printed. */
  printed(): boolean;
  /** What to print after the stream for `result` to be complete ('' when nothing was streamed). */
  rest(result: TurnResult, render: (result: TurnResult) => string): string;
}

/** `gap`: a blank line around the answer (the chat) or none (`ask`, whose stdout is only the answer). */
export function createStreamPrinter(output: NodeJS.WritableStream, gap: '\n' | '' = '\n'): StreamPrinter {
  let shown = '';
  // Set once printed text was taken back: the final answer is then printed whole.
  let stale = false;
  let any = false;
  return {
    write: (streamed, kind = 'answer') => {
      // A clarification question reads as the final one does: after "? ".
      const textSoFar = kind === 'clarification' && streamed ? `? ${streamed}` : streamed;
      if (textSoFar.startsWith(shown)) {
        if (!any && textSoFar) output.write(gap);
        output.write(textSoFar.slice(shown.length));
        any ||= textSoFar.length > 0;
        shown = textSoFar;
        return;
      }
      // Taken back, or rewritten from the start: carry on on a new line.
      stale = true;
      output.write('\n');
      shown = '';
      if (textSoFar) {
        output.write(`\n${textSoFar}`);
        shown = textSoFar;
      }
    },
    printed: () => any,
    rest: (result, render) => {
      if (!any) return '';
      // The clarification question printed as it was written is the whole of it.
      if (!stale && result.kind === 'clarification' && shown.trim() === `? ${result.question.trim()}`)
        return `\n${gap}`;
      if (!stale && result.kind === 'answer') {
        const { body, markdown } = result.answer;
        // The printed text is the answer (the model's own sources block may follow it): add the
        // sources as the graph built them from what was retrieved.
        if (shown.trim().startsWith(body.trim())) {
          const sources = markdown.slice(body.length).trim();
          return sources ? `\n\n${sources}\n${gap}` : `\n${gap}`;
        }
      }
      return `\n${gap}${render(result).trim()}\n${gap}`;
    },
  };
}
