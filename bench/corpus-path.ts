/**
 * Where the benchmark corpus is: BENCH_CORPUS, else ../shared/corpus next to this checkout. A bench
 * that needs it and does not find it stops with one line saying what to do.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const defaultCorpus = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/corpus');

export function corpusDirectory(): string {
  return path.resolve(process.env.BENCH_CORPUS ?? defaultCorpus);
}

export function missingCorpusHint(what: string): string {
  return (
    `${what} not found: put the benchmark PDFs in ${defaultCorpus} or set BENCH_CORPUS=<directory> ` +
    '(or pass a file where the bench takes one).'
  );
}

/** A file of the corpus; exits with the one-line hint when it is missing. */
export function corpusFile(name: string): string {
  const file = path.join(corpusDirectory(), name);
  if (!existsSync(file)) {
    console.error(missingCorpusHint(file));
    process.exit(1);
  }
  return file;
}
