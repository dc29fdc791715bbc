/**
 * Whether a message reads as a question, for channels that answer questions without a mention
 * (auto-answer). Cheap and deliberately conservative: it runs on every top-level message of such a
 * channel, and answering chatter ("thanks all", "lunch?") would be worse than missing a question.
 *
 * A question ends with "?" or starts with a question word, after leading mentions, quotes and
 * punctuation are stripped, and has at least three words.
 */

/** Words that start a question in English (checked case-insensitively, as the first word). */
const questionWords = new Set([
  'what',
  'whats',
  "what's",
  'how',
  'hows',
  "how's",
  'why',
  'when',
  'where',
  "where's",
  'who',
  "who's",
  'whom',
  'whose',
  'which',
  'can',
  'could',
  'does',
  'do',
  'did',
  'is',
  'are',
  'was',
  'were',
  'should',
  'shall',
  'will',
  'would',
  'am',
  "isn't",
  "aren't",
  "doesn't",
  "can't",
  "won't",
  "shouldn't",
  'anyone',
  'anybody',
]);

export const minimumQuestionWords = 3;
/** Longer texts are judged by their start and end only: the check stays cheap on a pasted log. */
const judgedLength = 4_000;

/** What is left of a message once leading mentions (`@dana`, `<@U123>`), quotes and punctuation go. */
function withoutLeadingNoise(text: string): string {
  const noise = [/^<[@#!][^>]{0,100}>/, /^@[\p{L}\p{N}._-]{1,80}/u, /^[\s\p{P}\p{S}]/u];
  let rest = text.trim();
  // One piece at a time, a mention before punctuation: "<@U1> <@U2> how …" loses both mentions whole.
  for (;;) {
    const piece = noise.map((pattern) => pattern.exec(rest)?.[0]).find((match) => match !== undefined);
    if (!piece) return rest;
    rest = rest.slice(piece.length);
  }
}

export function isQuestion(text: string): boolean {
  const bounded =
    text.length <= judgedLength
      ? text
      : `${text.slice(0, judgedLength / 2)} ${text.slice(-judgedLength / 2)}`;
  const body = withoutLeadingNoise(bounded);
  const words = body.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (words.length < minimumQuestionWords) return false;
  // Trailing closing brackets, quotes and emoji do not hide the question mark: "(is it down?) 🙏".
  const end = body.slice(-64).replace(/(?:[\s)\]"'”’]|\p{Extended_Pictographic}|\uFE0F)+$/u, '');
  if (/[?？]$/u.test(end)) return true;
  const [first = '', second = ''] = words.slice(0, 2).map((word) =>
    word
      .toLowerCase()
      .replace(/’/g, "'")
      .replace(/[^\p{L}']/gu, ''),
  );
  // "Do not deploy today" is an instruction, not a question.
  if (first === 'do' && second === 'not') return false;
  return questionWords.has(first);
}
