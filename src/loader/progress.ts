/**
 * Progress while loading: on a terminal one line redrawn in place a few times a second; in a
 * pipe or a log file a plain line every few seconds, which reads well after the fact.
 */
import type { Tally } from './tally.js';

export interface ProgressTarget {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const TTY_INTERVAL_MS = 250;
const PLAIN_INTERVAL_MS = 5000;

/** `m:ss` or `h:mm:ss`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** The counts, the rate, and the ETA when the total is known. */
export function progressLine(
  tally: Tally,
  elapsedMs: number,
  total: number | undefined,
  withBar = false,
): string {
  const done = tally.finished;
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const parts: string[] = [];
  if (total !== undefined && total > 0) {
    const percent = Math.min(100, Math.floor((done * 100) / total));
    parts.push(`${withBar ? `${bar(done / total)} ` : ''}${done}/${total} ${percent}%`);
  } else {
    parts.push(`${done} done`);
  }
  parts.push(
    `staged ${tally.staged}`,
    tally.dryRunOk > 0 ? `dry run ok ${tally.dryRunOk}` : `created ${tally.created}`,
    `failed ${tally.failed}`,
    `skipped ${tally.skipped}`,
    `${rate.toFixed(1)}/s`,
  );
  if (total !== undefined && rate > 0 && done < total) {
    parts.push(`ETA ${formatDuration((total - done) / rate)}`);
  }
  return parts.join(' | ');
}

function bar(fraction: number, width = 20): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

export class Progress {
  private timer: NodeJS.Timeout | undefined;
  private total: number | undefined;
  private readonly startedAt: number;

  constructor(
    private readonly tally: Tally,
    private readonly target: ProgressTarget,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
  }

  /** Known once the quick counting pass is done (NDJSON only); the ETA appears then. */
  setTotal(total: number | undefined): void {
    this.total = total;
  }

  start(): void {
    const interval = this.target.isTTY ? TTY_INTERVAL_MS : PLAIN_INTERVAL_MS;
    this.timer = setInterval(() => this.draw(), interval);
    // The display never keeps the process alive by itself.
    this.timer.unref();
  }

  /** Stops redrawing; on a terminal the last state stays on screen, ended by a newline. */
  stop(): void {
    clearInterval(this.timer);
    if (!this.target.isTTY) return;
    this.draw();
    this.target.write('\n');
  }

  private draw(): void {
    const tty = this.target.isTTY === true;
    const line = progressLine(this.tally, this.now() - this.startedAt, this.total, tty);
    if (!tty) {
      this.target.write(`${new Date(this.now()).toISOString()} ${line}\n`);
      return;
    }
    // A pseudo-terminal may report 0 columns.
    const width = this.target.columns || 120;
    this.target.write(`\r${line.slice(0, Math.max(10, width - 1))}\x1b[K`);
  }
}
