/**
 * Where a worker thread starts. Run compiled (dist/*.js), a worker starts from its own compiled module.
 * Run from the TypeScript sources (tsx, Vitest), it starts from a small `<name>.mjs` file next to the
 * `<name>.ts` module that registers tsx first: workers do not inherit the parent's loader.
 *
 *   new Worker(workerEntry(import.meta.url, 'extract-worker'), …)
 */
export function workerEntry(callerUrl: string, name: string): URL {
  const compiled = !callerUrl.endsWith('.ts');
  return new URL(`./${name}.${compiled ? 'js' : 'mjs'}`, callerUrl);
}
