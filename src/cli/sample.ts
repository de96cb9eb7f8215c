/** `sample`: realistic published accounts as NDJSON on stdout, to try the bulk loader on. */
import type { Writable } from 'node:stream';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { decimalInteger } from '../config.js';
import { SUPPLIER_CODE, SUPPLIER_CODE_RULE } from '../operator/supplier-code.js';
import { isCalendarDate } from '../payload/dates.js';
import { EARLIEST_AS_OF, utcToday } from '../sample/calendar.js';
import type { SampleOptions } from '../sample/sample.generator.js';
import { DEFAULT_SHAPE, SAMPLE_SHAPES, type SampleShape } from '../sample/shape.js';

interface SampleCommandOptions {
  count: number;
  supplier: string;
  invalidRatio: number;
  seed?: number;
  shape: SampleShape;
  asOf?: string;
}

function wholeNumber(max: number) {
  return (raw: string): number => {
    const value = decimalInteger(raw.trim(), 0, max);
    if (value === undefined) {
      throw new InvalidArgumentError(`must be a whole number from 0 to ${max}.`);
    }
    return value;
  };
}

function ratio(raw: string): number {
  const value = Number(raw);
  // Decimal only: Number() also reads "0x1", "1e0" and "Infinity".
  if (!/^\s*(\d+\.?\d*|\.\d+)\s*$/.test(raw) || value > 1) {
    throw new InvalidArgumentError('must be a number from 0 to 1.');
  }
  return value;
}

/** As `supplier add` has it: the accounts' numbers then stay within their 128 characters. */
function supplierCode(raw: string): string {
  const code = raw.trim();
  if (!SUPPLIER_CODE.test(code)) throw new InvalidArgumentError(`${SUPPLIER_CODE_RULE}.`);
  return code;
}

/**
 * A real date from EARLIEST_AS_OF to today: the accounts' history must lie in the past when they
 * are loaded, and in years the calendar counts in.
 */
function asOfDate(raw: string): string {
  const date = raw.trim();
  if (!isCalendarDate(date)) throw new InvalidArgumentError('must be a date as YYYY-MM-DD.');
  if (date > utcToday()) throw new InvalidArgumentError('may not be after today (UTC).');
  if (date < EARLIEST_AS_OF) throw new InvalidArgumentError(`may not be before ${EARLIEST_AS_OF}.`);
  return date;
}

/** Resolves when `out` can take more, or can take nothing ever again. */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const event of ['drain', 'close', 'error']) out.off(event, done);
      resolve();
    };
    for (const event of ['drain', 'close', 'error']) out.on(event, done);
  });
}

// Lines are written in chunks of about this size: one write per line would be slow.
const CHUNK_BYTES = 64 * 1024;

/**
 * Resolves once `out` has written `text` and everything before it, with the error of a write
 * that failed: the stream reports it as an event only after.
 */
function written(out: Writable, text: string): Promise<Error | undefined> {
  return new Promise((resolve) => out.write(text, (error) => resolve(error ?? undefined)));
}

/**
 * Writes the lines to `out`, waiting for it to drain when full; false if the reader went away
 * (EPIPE, as with `| head`). Any other write error (a full disk) is thrown.
 */
export async function writeSample(out: Writable, options: SampleOptions): Promise<boolean> {
  // Loaded here, not at the top, like every command's work: `load` never needs it.
  const { generateSample } = await import('../sample/sample.generator.js');
  let failure: NodeJS.ErrnoException | undefined;
  // Left on once a write has failed: the stream may report the error after it has returned.
  const onError = (error: NodeJS.ErrnoException) => (failure ??= error);
  out.on('error', onError);
  let chunk = '';
  for (const { payload } of generateSample(options)) {
    chunk += `${JSON.stringify(payload)}\n`;
    if (chunk.length < CHUNK_BYTES) continue;
    if (failure) break;
    const more = out.write(chunk);
    chunk = '';
    if (!more) await drained(out);
  }
  if (!failure) failure = await written(out, chunk);
  if (failure === undefined) {
    out.off('error', onError);
    return true;
  }
  if (failure.code === 'EPIPE') return false;
  throw new Error(`cannot write the sample: ${failure.message}`);
}

export function registerSample(program: Command): void {
  program
    .command('sample')
    .description('write realistic sample accounts (the published account) as NDJSON to stdout')
    .requiredOption('--count <n>', 'number of accounts', wholeNumber(100_000_000))
    .requiredOption('--supplier <code>', 'import supplier code of every account', supplierCode)
    .option('--invalid-ratio <r>', 'fraction (0-1) of accounts with one defect each', ratio, 0)
    .option(
      '--seed <s>',
      'seed for reproducible output (default: random, printed)',
      wholeNumber(2 ** 32 - 1),
    )
    .addOption(
      new Option('--shape <shape>', 'how much of the published account to fill in')
        .choices(SAMPLE_SHAPES)
        .default(DEFAULT_SHAPE),
    )
    .option(
      '--as-of <date>',
      `day the accounts' dates are counted back from, ${EARLIEST_AS_OF} or later (default: today, UTC)`,
      asOfDate,
    )
    .action(async (options: SampleCommandOptions) => {
      const seed = options.seed ?? Math.floor(Math.random() * 2 ** 32);
      if (options.seed === undefined) process.stderr.write(`seed: ${seed}\n`);
      await writeSample(process.stdout, {
        count: options.count,
        supplier: options.supplier,
        invalidRatio: options.invalidRatio,
        seed,
        shape: options.shape,
        asOf: options.asOf,
      });
    });
}
