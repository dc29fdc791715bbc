/**
 * Counts tokens with js-tiktoken's cl100k ranks shipped inside the package (no download), loaded once
 * (cl100k rather than o200k: half the load time, and the count only steers context compression).
 * Special-token strings such as `<|endoftext|>` count as ordinary text, and long runs without whitespace
 * (base64, hashes, tables squeezed out of a PDF) are split first so the byte-pair merge stays linear.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

const longestRun = 32;
let encoder: Tiktoken | undefined;

function getEncoder(): Tiktoken {
  encoder ??= new Tiktoken(cl100kBase);
  return encoder;
}

/** Loads the ranks now (about a second, once per process) rather than inside the first timed node. */
export function warmUpTokenCounter(): void {
  getEncoder();
}

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  const tiktoken = getEncoder();
  let total = 0;
  for (const piece of splitLongRuns(text)) total += tiktoken.encode(piece, [], []).length;
  return total;
}

function* splitLongRuns(text: string): Generator<string> {
  const runs = text.split(/(\s+)/);
  let buffer = '';
  for (const run of runs) {
    if (run.length <= longestRun) {
      buffer += run;
      continue;
    }
    if (buffer) yield buffer;
    buffer = '';
    for (let start = 0; start < run.length; start += longestRun) yield run.slice(start, start + longestRun);
  }
  if (buffer) yield buffer;
}
