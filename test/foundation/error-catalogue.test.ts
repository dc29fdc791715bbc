/**
 * Every error sentence lives in one catalogue (src/error-messages-en.ts, with each platform's part under
 * src/platforms/<platform>/): each code has its entry, and no throw site anywhere in src/ (the platforms
 * and the turns included) writes its own sentence, so the move cannot regress.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorMessages } from '../../src/error-messages-en.ts';
import { errorCodes, RagentError } from '../../src/errors.ts';
import { discordErrorMessages } from '../../src/platforms/discord/discord-error-messages-en.ts';
import { slackErrorMessages } from '../../src/platforms/slack/slack-error-messages-en.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface ThrowSite {
  file: string;
  line: number;
  code: string;
  message: string;
}

/** Each file of src/ that matches `pattern` (a git grep -E pattern). */
function sourceFiles(pattern: string): string[] {
  return execFileSync('git', ['grep', '-l', '-E', pattern, '--', 'src/*.ts'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '');
}

/**
 * Each `new RagentError(code, message`, `serviceError(code, message` and `serviceFailure(code, message` in
 * src/, with the text of its message's first line.
 */
function throwSites(): ThrowSite[] {
  const files = sourceFiles('new RagentError\\(|service(Error|Failure)\\(');
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

/** The catalogue and its platforms' parts, as throw sites name them. */
const catalogues: Record<string, Record<string, unknown>> = {
  errorMessages,
  slackErrorMessages,
  discordErrorMessages,
};

/** A message taken from a catalogue: `errorMessages.X…`, `slackErrorMessages.X…`, or an addition. */
const fromCatalogue = /^(errorMessages|slackErrorMessages|discordErrorMessages|errorMessageAdditions)\./;

describe('the error catalogue', () => {
  it('has an entry for every error code, each a sentence or a sentence per situation', () => {
    // A code only one platform meets (PERMISSION_DENIED, DOWNLOAD_FAILED) has its entries in that part.
    const missing = errorCodes.filter(
      (code) => !Object.values(catalogues).some((catalogue) => code in catalogue),
    );
    expect(missing).toEqual([]);
    // Every platform's part is here: a new one is added to `catalogues`, so its entries are checked too.
    expect(
      execFileSync('git', ['ls-files', 'src/platforms/*-error-messages-en.ts'], {
        cwd: root,
        encoding: 'utf8',
      })
        .split('\n')
        .filter((file) => file !== ''),
    ).toEqual([
      'src/platforms/discord/discord-error-messages-en.ts',
      'src/platforms/slack/slack-error-messages-en.ts',
    ]);
    for (const [name, catalogue] of Object.entries(catalogues)) {
      expect([
        name,
        Object.keys(catalogue).filter((code) => !(errorCodes as readonly string[]).includes(code)),
      ]).toEqual([name, []]);
      for (const [code, entry] of Object.entries(catalogue)) {
        const sentences = typeof entry === 'function' ? [entry] : Object.values(entry as object);
        expect([
          `${name}.${code}`,
          sentences.length > 0 && sentences.every((sentence) => typeof sentence === 'function'),
        ]).toEqual([`${name}.${code}`, true]);
      }
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

  it('is where every throw site takes its sentence from', () => {
    const sites = throwSites();
    // No folder is left out: the platforms' and the turns' throw sites are searched too (the
    // platforms' fewer as their downloads and decisions move into the core, issue #21).
    expect(sites.filter((site) => site.file.startsWith('src/platforms/')).length).toBeGreaterThan(5);
    expect(sites.filter((site) => site.file.startsWith('src/turns/')).length).toBeGreaterThan(3);
    // The search itself works: it finds the sites that use the catalogue.
    expect(sites.filter((site) => site.message.startsWith('errorMessages.')).length).toBeGreaterThan(100);
    // A message that is not the catalogue's and spells out text (a literal, a template, a choice of two).
    const ownSentences = sites.filter(
      (site) => !fromCatalogue.test(site.message) && /['"`]/.test(site.message),
    );
    expect(ownSentences.map((site) => `${site.file}:${site.line}`)).toEqual([]);
    // A site's sentence is its own code's: errorMessages.X (or a platform's X) under the code 'X'.
    const mismatched = sites.filter((site) => {
      const entry = /^(?:errorMessages|slackErrorMessages|discordErrorMessages)\.([A-Z_]+)/.exec(
        site.message,
      )?.[1];
      return entry !== undefined && site.code !== `'${entry}'`;
    });
    expect(mismatched.map((site) => `${site.file}:${site.line}`)).toEqual([]);
  });

  it('gives toRagentError its opening sentence from the catalogue, never spelled out', () => {
    const openings: Array<{ file: string; opening: string }> = [];
    for (const file of sourceFiles('toRagentError\\(')) {
      const text = readFileSync(`${root}${file}`, 'utf8');
      for (const match of text.matchAll(/toRagentError\(\s*[^,()]+,\s*(\S[^\n]*)/g)) {
        openings.push({ file, opening: match[1] ?? '' });
      }
    }
    // The search itself works: it finds the callers that pass an opening.
    expect(openings.length).toBeGreaterThan(3);
    const spelledOut = openings.filter(
      (site) => !site.opening.startsWith('errorMessageOpenings.') && /['"`]/.test(site.opening),
    );
    expect(spelledOut.map((site) => `${site.file}: ${site.opening}`)).toEqual([]);
  });
});
