import type { CheckResult } from './check-result.ts';

/** Node.js version: 20.19+ works (past end of life), 22 and 24 LTS are recommended. */
export function checkNodeVersion(version: string = process.versions.node): CheckResult {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const title = 'Node.js';
  if (major < 20 || (major === 20 && minor < 19)) {
    return {
      title,
      status: 'fail',
      detail: `v${version} is too old (ragent needs 20.19 or newer)`,
      fix: ['Install Node.js 22 or 24 LTS from https://nodejs.org/ (or: nvm install 22), then npm ci again.'],
    };
  }
  if (major === 20) {
    return {
      title,
      status: 'warn',
      detail: `v${version} works, but Node 20 is past its end of life`,
      fix: ['Move to Node.js 22 or 24 LTS when you can, then run npm ci again.'],
    };
  }
  return { title, status: 'pass', detail: `v${version}` };
}

/** better-sqlite3 is a native module: it breaks when node_modules was built for another Node version. */
export async function checkSqlite(): Promise<CheckResult> {
  const title = 'SQLite (better-sqlite3)';
  try {
    const { default: Database } = await import('better-sqlite3');
    const database = new Database(':memory:');
    const row = database.prepare('select sqlite_version() as version').get() as { version: string };
    database.close();
    return { title, status: 'pass', detail: `SQLite ${row.version}` };
  } catch (error) {
    return {
      title,
      status: 'fail',
      detail: `the native module does not load: ${firstLine(error)}`,
      fix: [
        'Rebuild it for this Node.js version: npm rebuild better-sqlite3',
        'If that fails, install build tools (python3, make, g++; on macOS: xcode-select --install) and run npm ci.',
      ],
    };
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
