import { createRequire } from 'node:module';
import type { Config } from '../config.ts';
import { isRagentError } from '../errors.ts';
import { languageFile } from '../ingest/ocr/language-data.ts';
import type { CheckResult } from './check-result.ts';

const title = 'OCR';
const require = createRequire(import.meta.url);

/**
 * OCR can run offline: each language of RAGENT_OCR_LANGS has its data package and the canvas that
 * renders scanned PDF pages loads (its prebuilt binary matches this machine). The engine itself is not
 * started (seconds); a missing piece otherwise shows only on the first scan.
 */
export function checkOcr(config: Config): CheckResult {
  if (!config.ocr.enabled) return { title, status: 'skip', detail: 'off (RAGENT_OCR=off)' };
  try {
    for (const language of config.ocr.languages) languageFile(language, config.ocr.model);
  } catch (error) {
    if (!isRagentError(error)) throw error;
    return {
      title,
      status: 'fail',
      detail: error.message,
      fix: [
        'Install the package named above (npm install --save-exact @tesseract.js-data/<code>), or remove that language from RAGENT_OCR_LANGS',
      ],
    };
  }
  try {
    require('@napi-rs/canvas');
  } catch (error) {
    return {
      title,
      status: 'warn',
      detail: `images are read, but scanned PDF pages cannot be rendered: @napi-rs/canvas does not load (${
        error instanceof Error ? error.message.split('\n')[0] : String(error)
      })`,
      fix: [
        'Reinstall the packages on this machine (npm ci) so the canvas binary for its platform is installed',
      ],
    };
  }
  return { title, status: 'pass', detail: `${config.ocr.languages.join('+')}, offline` };
}
