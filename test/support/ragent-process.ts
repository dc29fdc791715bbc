/**
 * `ragent start` in a child process, as people run it (`node bin/ragent.js start`), for the tests
 * that need a real crash or several real replicas: `crash()` kills it with SIGKILL — no signal
 * handler, no graceful stop, nothing flushed but what SQLite already committed; `stop()` is the
 * graceful SIGTERM a supervisor sends; `pause()` freezes it (SIGSTOP) until it is killed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/ragent.js', import.meta.url));

export interface RagentProcess {
  /** What it printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGKILL; resolves once the process is gone. */
  crash(): Promise<void>;
  /** SIGTERM; resolves with the exit code once the process is gone. */
  stop(): Promise<number | null>;
  /** SIGSTOP: it freezes (reads and answers nothing, its connections stay open), as a hung machine. */
  pause(): void;
  /** The process id. */
  readonly pid: number | undefined;
}

/** Starts `ragent start` with exactly `environment` (plus PATH) and waits until it says it runs. */
export async function startRagentProcess(
  environment: Record<string, string>,
  options: { cwd: string; timeoutMs?: number },
): Promise<RagentProcess> {
  const child: ChildProcess = spawn(process.execPath, [bin, 'start'], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: options.cwd, LOG_LEVEL: 'warn', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const running = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('ragent is running')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`ragent exited (${signal ?? code}) before it was running:\n${output}`)),
    );
  });
  // Generous: a loaded machine (CI beside other jobs) may take a while to start Node and load the sources.
  const timeoutMs = options.timeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`ragent did not start in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
  });
  const isRunning = () => child.exitCode === null && child.signalCode === null;
  const crash = async () => {
    if (isRunning()) child.kill('SIGKILL');
    await exited;
  };
  const stop = async () => {
    if (isRunning()) child.kill('SIGTERM');
    return exited;
  };
  try {
    await Promise.race([running, timeout]);
  } catch (error) {
    await crash();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const pause = () => {
    if (isRunning()) child.kill('SIGSTOP');
  };
  return { output: () => output, crash, stop, pause, pid: child.pid };
}
