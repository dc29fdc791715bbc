/**
 * Where the OCR engine reads its language data: each language is the npm package
 * @tesseract.js-data/<code>, installed by `npm ci`. tesseract.js downloads the data from a CDN at run
 * time unless `langPath` names a local directory, so this module always gives it one, and the engine
 * is told never to write a cache (`cacheMethod: 'none'`).
 *
 * tesseract.js reads every language from the one `langPath`, while each package has its own
 * directory: for several languages, a temporary directory of links to the packages' files is made
 * (and removed by `release`).
 *
 * With RAGENT_OCR_MODEL=fast (the default), a language that ragent ships a fast model for (English:
 * `ocr-models/tessdata-fast/`, committed with the code) is read from there instead.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';

const require = createRequire(import.meta.url);

/**
 * The packages ship two builds of each language: `4.0.0` (with the legacy engine's data) and
 * `4.0.0_best_int` (LSTM only, a quarter of the size). ragent runs the LSTM engine only, which is
 * what tesseract.js itself would download, so it reads the second; the first is the fall-back.
 */
const builds = ['4.0.0_best_int', '4.0.0'];

/** The shipped fast models: the same path from src/ingest/ocr/ and from the build in dist/ingest/ocr/. */
const fastModels = fileURLToPath(new URL('../../../ocr-models/tessdata-fast/', import.meta.url));

export interface LanguageData {
  /** tesseract's form: eng+deu. */
  languages: string;
  langPath: string;
  release(): Promise<void>;
}

/** The gzipped traineddata file of one language; throws OCR_LANGUAGE_MISSING without its package. */
export function languageFile(code: string, model: 'fast' | 'best' = 'best'): string {
  const fast = path.join(fastModels, `${code}.traineddata.gz`);
  if (model === 'fast' && existsSync(fast)) return fast;
  const packageName = `@tesseract.js-data/${code}`;
  let directory: string;
  try {
    directory = path.dirname(require.resolve(`${packageName}/package.json`));
  } catch (error) {
    throw new RagentError(
      'OCR_LANGUAGE_MISSING',
      errorMessages.OCR_LANGUAGE_MISSING.packageMissing({ code, packageName }),
      { cause: error, details: { language: code } },
    );
  }
  for (const build of builds) {
    const file = path.join(directory, build, `${code}.traineddata.gz`);
    if (existsSync(file)) return file;
  }
  throw new RagentError(
    'OCR_LANGUAGE_MISSING',
    errorMessages.OCR_LANGUAGE_MISSING.dataMissing({ packageName, code, builds }),
    { details: { language: code } },
  );
}

export async function prepareLanguageData(
  codes: readonly string[],
  model: 'fast' | 'best' = 'best',
): Promise<LanguageData> {
  if (codes.length === 0)
    throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.ocrLanguagesEmpty());
  const files = codes.map((code) => languageFile(code, model));
  const directories = new Set(files.map((file) => path.dirname(file)));
  const [only] = directories;
  if (directories.size === 1 && only !== undefined) {
    return { languages: codes.join('+'), langPath: only, release: async () => {} };
  }
  const linked = await mkdtemp(path.join(tmpdir(), 'ragent-ocr-languages-'));
  try {
    await Promise.all(files.map((file) => symlink(file, path.join(linked, path.basename(file)))));
  } catch (error) {
    await rm(linked, { recursive: true, force: true });
    throw error;
  }
  return {
    languages: codes.join('+'),
    langPath: linked,
    release: () => rm(linked, { recursive: true, force: true }),
  };
}
