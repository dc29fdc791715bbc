/**
 * One wording of the graph's progress for every adapter: a short status line a person reads
 * while the answer is being prepared. Platforms add their own formatting around it.
 */
import type { ProgressEvent } from '../../core/types.ts';

const maxQueryLength = 80;

export function describeProgress(event: ProgressEvent): string | undefined {
  switch (event.type) {
    case 'queued':
      return event.reason === 'thread-busy'
        ? 'Waiting for the previous message in this thread to be answered…'
        : 'Waiting for the model (other questions are being answered)…';
    case 'summarizing':
      return 'Reading the conversation…';
    case 'rewriting':
      return 'Understanding the question…';
    case 'clarifying':
      return 'The question needs a detail…';
    case 'planned':
      return event.questions.length > 1
        ? `Split into ${event.questions.length} sub-questions…`
        : 'Looking for the answer…';
    case 'sub-question-started':
      return event.total > 1
        ? `Sub-question ${event.index + 1} of ${event.total}: ${shorten(event.question)}`
        : undefined;
    case 'searching':
      return `Searching the documents for “${shorten(event.query)}”…`;
    case 'reading':
      return event.section ? `Reading “${shorten(event.section)}”…` : 'Reading a section…';
    case 'compressing':
      return 'Condensing what was found so far…';
    case 'falling-back':
      return 'Writing the best answer from what was found…';
    case 'sub-question-done':
      return event.total > 1 ? `Answered ${event.index + 1} of ${event.total} sub-questions…` : undefined;
    case 'aggregating':
      return 'Writing the answer…';
    case 'done':
      return undefined;
  }
}

function shorten(text: string): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length <= maxQueryLength ? single : `${single.slice(0, maxQueryLength - 1)}…`;
}
