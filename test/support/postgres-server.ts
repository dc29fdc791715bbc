/**
 * A real, throwaway PostgreSQL for the tests: `initdb` into a temporary folder, `pg_ctl start` on a free
 * loopback port (socket in the same folder), removed again by `stop()`. PostgreSQL refuses to run as
 * root, so as root the server runs as the `postgres` system user (`runuser`). The binaries come from
 * PG_BIN, else the newest /usr/lib/postgresql/<version>/bin; none found is a loud failure, never a skip.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, no password). */
  url: string;
  port: number;
  /** Milliseconds from initdb to the first accepted connection. */
  startMilliseconds: number;
  stop(): Promise<void>;
}

export function findPostgresBinaries(environment: Record<string, string | undefined> = process.env): string {
  const explicit = environment.PG_BIN;
  if (explicit) {
    if (!existsSync(path.join(explicit, 'initdb'))) {
      throw new Error(`PG_BIN=${explicit} has no initdb: point PG_BIN at PostgreSQL's bin directory.`);
    }
    return explicit;
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
        .sort((left, right) => Number(right) - Number(left))
    : [];
  const newest = versions[0];
  if (!newest) {
    throw new Error(
      'PostgreSQL binaries not found: the Postgres tests need them. Install them (apt-get install postgresql) or set PG_BIN to the bin directory of a PostgreSQL 14+ install.',
    );
  }
  return path.join(root, newest, 'bin');
}

/** @param settings more `name=value` server settings (a bench preloads pg_stat_statements). */
export async function startPostgresServer(settings: readonly string[] = []): Promise<PostgresServer> {
  const started = performance.now();
  const bin = findPostgresBinaries();
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? await postgresUser() : undefined;
  const folder = mkdtempSync(path.join(tmpdir(), 'ragent-postgres-'));
  const dataDir = path.join(folder, 'data');
  if (owner) chownSync(folder, owner.uid, owner.gid);
  const asOwner = (command: string, args: string[]) =>
    owner
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args])
      : run(path.join(bin, command), args);
  try {
    await asOwner('initdb', ['-N', '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '-D', dataDir]);
    // The superuser `postgres` needs no password; every other role does (so a wrong password fails).
    writeFileSync(
      path.join(dataDir, 'pg_hba.conf'),
      [
        'local all all trust',
        'host all postgres 127.0.0.1/32 trust',
        'host all all 127.0.0.1/32 scram-sha-256',
        '',
      ].join('\n'),
    );
    const port = await freePort();
    const options = [
      `-p ${port}`,
      "-c listen_addresses='127.0.0.1'",
      `-k ${folder}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
      ...settings.map((setting) => `-c ${setting}`),
    ].join(' ');
    await asOwner('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      path.join(folder, 'log'),
      '-o',
      options,
      '-w',
      '-t',
      '30',
      'start',
    ]);
    await asOwner('pg_isready', ['-h', '127.0.0.1', '-p', String(port), '-t', '10']);
    const startMilliseconds = Math.round(performance.now() - started);
    // If the process exits without stop() (a crash, Ctrl-C), never leave a server running behind it.
    const stopAtExit = () => {
      const pgCtl = [path.join(bin, 'pg_ctl'), '-D', dataDir, '-m', 'immediate', '-w', 'stop'];
      try {
        if (owner) execFileSync('runuser', ['-u', 'postgres', '--', ...pgCtl], { stdio: 'ignore' });
        else execFileSync(pgCtl[0]!, pgCtl.slice(1), { stdio: 'ignore' });
      } catch {}
      rmSync(folder, { recursive: true, force: true });
    };
    process.once('exit', stopAtExit);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      startMilliseconds,
      stop: async () => {
        process.off('exit', stopAtExit);
        try {
          await asOwner('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    const output = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`Starting the test PostgreSQL failed${output ? `: ${output}` : ''}`, { cause: error });
  }
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch (error) {
    throw new Error(
      'Running as root, the test PostgreSQL needs the "postgres" system user (PostgreSQL refuses to run as root): install the postgresql package or run the tests as another user.',
      { cause: error },
    );
  }
}
