/**
 * The clarification question, streamed as the rewrite model writes it. The question is a field of the
 * rewrite's JSON reply (`{"isClear": false, …, "clarificationNeeded": "…"}`), so it is read from the
 * partial JSON: once `isClear` is false, the string written so far in `clarificationNeeded` is shown.
 * A correction round starts over; a reply that turns out clear (or invalid) takes the text back. The
 * final reply (the validated question, or the fallback one) then replaces what was shown.
 */
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { turnContext } from './graph-dependencies.ts';

export interface ClarificationTextStream {
  /** For `chatStructured`'s `onToken`: undefined when nobody listens. */
  onToken?: (text: string) => void;
  /** A new round of the structured call begins: what it writes starts over. */
  restart(): void;
  /** Takes back what was shown (the question turned out clear, or is not asked). */
  retract(): void;
}

export function streamClarificationText(config: LangGraphRunnableConfig): ClarificationTextStream {
  const onText = turnContext(config).onText;
  if (!onText) return { restart: () => {}, retract: () => {} };
  let raw = '';
  let shown = '';
  const retract = () => {
    if (shown) onText('', 'clarification');
    shown = '';
  };
  return {
    onToken: (token) => {
      raw += token;
      if (!/"isClear"\s*:\s*false/.test(raw)) return;
      const question = partialStringField(raw, 'clarificationNeeded')?.trimStart() ?? '';
      if (!question.trim() || question === shown) return;
      shown = question;
      onText(question, 'clarification');
    },
    restart: () => {
      raw = '';
      retract();
    },
    retract,
  };
}

const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

/** The value of the string field `field` in partial JSON, as far as it is written (undefined before it starts). */
export function partialStringField(json: string, field: string): string | undefined {
  const start = new RegExp(`"${field}"\\s*:\\s*"`).exec(json);
  if (!start) return undefined;
  let value = '';
  let index = start.index + start[0].length;
  while (index < json.length) {
    const character = json[index] ?? '';
    if (character === '"') break;
    if (character !== '\\') {
      value += character;
      index++;
      continue;
    }
    const next = json[index + 1];
    // An escape cut in the middle waits for the next piece.
    if (next === undefined) break;
    if (next === 'u') {
      const hex = json.slice(index + 2, index + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) break;
      value += String.fromCharCode(Number.parseInt(hex, 16));
      index += 6;
      continue;
    }
    value += escapes[next] ?? next;
    index += 2;
  }
  return value;
}
