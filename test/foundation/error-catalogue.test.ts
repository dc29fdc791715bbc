/**
 * Every error sentence lives in one catalogue (src/error-messages-en.ts): each code has its entry, and no
 * throw site outside the folders still being moved writes its own sentence, so the move cannot regress.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorMessages } from '../../src/error-messages-en.ts';
import { type ErrorCode, errorCodes, RagentError } from '../../src/errors.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Folders whose throw sites still carry their own sentences (their chat sentences are in
 * src/turns/messages-en.ts or inline); they move into the catalogue next, and this list shrinks.
 */
const notYetMoved = [/^src\/platforms\//, /^src\/turns\//];

/** Codes thrown only from those folders, so without a catalogue entry yet. */
const codesOnlyThrownThere: ErrorCode[] = [
  'NETWORK_UNREACHABLE',
  'PERMISSION_DENIED',
  'LINK_REFUSED',
  'DOWNLOAD_FAILED',
];

interface ThrowSite {
  file: string;
  line: number;
  code: string;
  message: string;
}

/**
 * Each `new RagentError(code, message`, `serviceError(code, message` and `serviceFailure(code, message` in
 * src/, with the text of its message's first line.
 */
function throwSites(): ThrowSite[] {
  const files = execFileSync(
    'git',
    ['grep', '-l', '-E', 'new RagentError\\(|service(Error|Failure)\\(', '--', 'src/*.ts'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter((file) => file !== '');
  const sites: ThrowSite[] = [];
  for (const file of files) {
    const text = readFileSync(`${root}${file}`, 'utf8');
    for (const match of text.matchAll(
      /(?:new RagentError|serviceError|serviceFailure)\(\s*([^,()]+?),\s*(\S[^\n]*)/g,
    )) {
      const [, code = '', message = ''] = match;
      if (code.startsWith('code:')) continue; // a declaration: `serviceError(code: ErrorCode, …)`
      sites.push({ file, line: text.slice(0, match.index).split('\n').length, code: code.trim(), message });
    }
  }
  return sites;
}

describe('the error catalogue', () => {
  it('has an entry for every error code, each a sentence or a sentence per situation', () => {
    const catalogue: Record<string, unknown> = errorMessages;
    const missing = errorCodes.filter((code) => !(code in catalogue));
    expect(missing).toEqual(codesOnlyThrownThere);
    expect(
      Object.keys(catalogue).filter((code) => !(errorCodes as readonly string[]).includes(code)),
    ).toEqual([]);
    for (const [code, entry] of Object.entries(catalogue)) {
      const sentences = typeof entry === 'function' ? [entry] : Object.values(entry as object);
      expect([
        code,
        sentences.length > 0 && sentences.every((sentence) => typeof sentence === 'function'),
      ]).toEqual([code, true]);
    }
  });

  it('keeps each sentence word for word, with the facts filled in', () => {
    const error = new RagentError('FILE_EMPTY', errorMessages.FILE_EMPTY.noBytes({ name: 'notes.txt' }));
    expect(error.message).toBe('notes.txt is empty (0 bytes). Check the file and try again.');
    expect(
      errorMessages.INVALID_INPUT.answerSourcePageMissing({ name: 'guide.pdf', scope: 'shared', pages: 1 }),
    ).toBe('guide.pdf in shared has 1 page: pass --source guide.pdf:<page> with a page from 1 to 1.');
    expect(
      errorMessages.FETCH_INVALID_URL({ url: `https://${'a'.repeat(300)}`, reason: 'it is too long' }),
    ).toBe(
      `https://${'a'.repeat(192)}… cannot be fetched: it is too long. Give an http:// or https:// address.`,
    );
  });

  it('is where every throw site outside the folders still being moved takes its sentence from', () => {
    const sites = throwSites();
    const moved = sites.filter((site) => !notYetMoved.some((folder) => folder.test(site.file)));
    // The search itself works: it finds the sites that use the catalogue.
    expect(moved.filter((site) => site.message.startsWith('errorMessages.')).length).toBeGreaterThan(100);
    // A message that is not the catalogue's and spells out text (a literal, a template, a choice of two).
    const ownSentences = moved.filter(
      (site) => !/^errorMessage(s|Additions)\./.test(site.message) && /['"`]/.test(site.message),
    );
    expect(ownSentences.map((site) => `${site.file}:${site.line}`)).toEqual([]);
    // A site's sentence is its own code's: errorMessages.X under the code 'X'.
    const mismatched = moved.filter((site) => {
      const entry = /^errorMessages\.([A-Z_]+)/.exec(site.message)?.[1];
      return entry !== undefined && site.code !== `'${entry}'`;
    });
    expect(mismatched.map((site) => `${site.file}:${site.line}`)).toEqual([]);
  });
});
