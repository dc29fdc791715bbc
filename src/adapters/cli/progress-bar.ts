/**
 * A small dependency-free progress bar for the terminal: `label [████░░░░] 120/2415 pages · 180/s · ETA 12s`,
 * redrawn in place at most ten times a second. When the stream is not a TTY (a pipe, a log file, CI)
 * it prints plain lines instead: one per stage, and one per 10% of progress.
 */

export interface ProgressBarOptions {
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Defaults to the stream's own `isTTY`. */
  interactive?: boolean;
  /** Milliseconds clock; injectable for tests. */
  now?: () => number;
  width?: number;
}

export interface ProgressBar {
  /** Shows progress of the current stage; a new label starts a new stage (and resets the rate). */
  update(label: string, done: number, total: number, unit: string): void;
  /** Prints a line above the bar (the bar is redrawn on the next update). */
  log(line: string): void;
  /** Removes the bar (TTY) so the next output starts on a clean line. */
  clear(): void;
}

export function createProgressBar(options: ProgressBarOptions): ProgressBar {
  const { stream } = options;
  const interactive = options.interactive ?? stream.isTTY === true;
  const now = options.now ?? (() => performance.now());
  const barWidth = options.width ?? 24;
  let stage = '';
  let stageStart = 0;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let lastDecile = -1;
  let drawn = false;

  const clear = () => {
    if (interactive && drawn) stream.write('\r\u001b[2K');
    drawn = false;
  };

  return {
    update(label, done, total, unit) {
      const time = now();
      if (label !== stage) {
        stage = label;
        stageStart = time;
        lastDecile = -1;
        lastDraw = Number.NEGATIVE_INFINITY;
      }
      const finished = total > 0 && done >= total;
      if (interactive) {
        if (!finished && time - lastDraw < 100) return;
        lastDraw = time;
        const line = renderLine(label, done, total, unit, (time - stageStart) / 1000, barWidth);
        const columns = stream.columns && stream.columns > 20 ? stream.columns : 120;
        stream.write(`\r\u001b[2K${line.slice(0, columns - 1)}`);
        drawn = true;
        return;
      }
      const decile = total > 0 ? Math.floor((done / total) * 10) : 0;
      if (decile === lastDecile) return;
      lastDecile = decile;
      stream.write(`${renderLine(label, done, total, unit, (time - stageStart) / 1000, 0)}\n`);
    },
    log(line) {
      clear();
      stream.write(`${line}\n`);
    },
    clear,
  };
}

/** `label [bar] done/total unit · rate/s · ETA`; no bar when `barWidth` is 0. */
export function renderLine(
  label: string,
  done: number,
  total: number,
  unit: string,
  elapsedSeconds: number,
  barWidth: number,
): string {
  if (total <= 0) return `${label}…`;
  const fraction = Math.min(1, done / total);
  const parts = [label];
  if (barWidth > 0) {
    const filled = Math.round(fraction * barWidth);
    parts.push(`[${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}]`);
  }
  parts.push(`${done}/${total} ${unit}`);
  const rate = elapsedSeconds > 0.2 ? done / elapsedSeconds : 0;
  const details: string[] = [];
  if (rate > 0) details.push(`${rate >= 10 ? Math.round(rate) : rate.toFixed(1)} ${unit}/s`);
  if (rate > 0 && done < total) details.push(`ETA ${formatDuration((total - done) / rate)}`);
  return [parts.join(' '), ...details].join(' · ');
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  return minutes < 60
    ? `${minutes}m${String(rest).padStart(2, '0')}s`
    : `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}
