/** The outcome of one doctor check. Rendering lives in the CLI adapter; checks only describe. */
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip';

export interface CheckResult {
  /** Short name of what was checked, e.g. "Ollama". */
  title: string;
  /** `fail` = something required is missing; `warn` = worth fixing, not required. */
  status: CheckStatus;
  /** What was found. Never contains a secret. */
  detail: string;
  /** What to do, one step per line (for `fail` and `warn`). */
  fix?: string[];
}

export interface DoctorReport {
  results: CheckResult[];
  /** True when nothing required is missing (warnings allowed). */
  ok: boolean;
}

/** A URL fit to print: credentials removed, no trailing slash. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/+$/, '');
  } catch {
    return '(invalid URL)';
  }
}
