/**
 * Builds the program from the command groups, runs it and turns every failure into one line
 * on stderr and an exit code: 1 for bad input, 2 for anything unexpected.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { OperatorError } from '../shared/operator-error.js';
import type { CommandGroup } from './common.js';

export const EXIT_OK = 0;
export const EXIT_BAD_INPUT = 1;
export const EXIT_UNEXPECTED = 2;

/** Runs the CLI on the arguments (without node and script) and returns the exit code. */
export async function runCli(groups: readonly CommandGroup[], args: string[]): Promise<number> {
  // Known before parsing, so that even a usage error is reported in the requested format.
  const json = args.includes('--json');
  const program = buildProgram(groups, json);
  try {
    await program.parseAsync(args, { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    // Commander has already written its own message (usage errors, help, version).
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof OperatorError || error instanceof ConfigError) {
      writeError(error.message, json);
      return EXIT_BAD_INPUT;
    }
    writeError(describe(error), json);
    if (process.env.DEBUG && error instanceof Error && error.stack) {
      process.stderr.write(`${error.stack}\n`);
    }
    return EXIT_UNEXPECTED;
  }
}

function buildProgram(groups: readonly CommandGroup[], json: boolean): Command {
  // Settings made before the commands are added are inherited by every subcommand.
  const program = new Command('account-import')
    .description('Operate the account import service: serve, migrate and set up its data.')
    .version(version(), '-V, --version')
    .option('--json', 'machine-readable output (JSON on stdout, errors as {"error": ...})')
    .option('--database-url <url>', 'database to use, overrides DATABASE_URL')
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      // One line, as every other error: Commander adds its hints ("Did you mean …?") below.
      outputError: (message, write) => {
        const line = oneLine(message);
        write(json ? jsonError(line.replace(/^error: /, '')) : `${line}\n`);
      },
    });
  for (const group of groups) group(program);
  for (const command of program.commands) {
    if (command.commands.length > 0) {
      requireSubcommand(command);
      addHelpCommand(command);
    }
  }
  addHelpCommand(program);
  refuseRepeatedOptions(program);
  return program;
}

/**
 * An option given twice on the command line is a usage error (exit 1), where Commander would
 * keep the last value: an operator who typed two values meant one of them, and which is a guess.
 * So are both halves of a negatable pair (`--customer-emails --no-customer-emails`). Options
 * that collect their values (a list default, such as `org add --supplier`) may repeat, and so
 * may a flag without a value, repeated as it is.
 */
function refuseRepeatedOptions(command: Command): void {
  const given = new Map<string, string>();
  for (const option of command.options) {
    if (option.variadic || Array.isArray(option.defaultValue)) continue;
    const attribute = option.attributeName();
    const flag = option.long ?? option.name();
    const takesValue = option.required || option.optional;
    // Registered after Commander's own listener, so this runs once the value is stored.
    command.on(`option:${option.name()}`, () => {
      const before = given.get(attribute);
      given.set(attribute, flag);
      if (before === undefined || (before === flag && !takesValue)) return;
      command.error(
        before === flag
          ? `error: option '${option.flags}' is given twice; give it once`
          : `error: options '${before}' and '${flag}' are both given; give one of them`,
        { exitCode: EXIT_BAD_INPUT, code: 'commander.repeatedOption' },
      );
    });
  }
  for (const subcommand of command.commands) refuseRepeatedOptions(subcommand);
}

/**
 * A group named without one of its commands (`account-import supplier`) is a usage error
 * reported in one line, like any other, rather than its help text.
 */
function requireSubcommand(group: Command): void {
  const names = group.commands.map((command) => command.name()).join(', ');
  group.allowExcessArguments().action(function (this: Command) {
    const [unknown] = this.args;
    this.error(
      unknown === undefined
        ? `error: missing command: '${group.name()}' needs one of ${names}`
        : `error: unknown command '${unknown}'`,
    );
  });
}

/**
 * `help [command...]` as a command of our own, for the program and each group: Commander's
 * prints the whole usage on stderr for a command it does not know, where an unknown command is
 * otherwise one error line. Names may go down through a group (`help supplier add`).
 */
function addHelpCommand(parent: Command): void {
  parent.helpCommand(false);
  parent
    .command('help')
    .description('display help for command')
    .argument('[command...]', 'the command to describe')
    .action(function (this: Command, path: string[]) {
      let target = parent;
      for (const name of path) {
        const found = target.commands.find(
          (command) => command.name() === name || command.aliases().includes(name),
        );
        if (found === undefined) this.error(`error: unknown command '${name}'`);
        target = found;
      }
      target.help();
    });
}

function writeError(message: string, json: boolean): void {
  const line = oneLine(message);
  process.stderr.write(json ? jsonError(line) : `error: ${line}\n`);
}

const oneLine = (message: string) => message.replace(/\s*\n\s*/g, ' ').trim();

function jsonError(message: string): string {
  return `${JSON.stringify({ error: message })}\n`;
}

/** A one-line description of an unexpected error, never its stack. */
function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0 && !error.message) {
    // A connection refused on every address of a host name comes as an empty AggregateError.
    return error.errors.map(describe).join('; ');
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return error.message || (typeof code === 'string' ? code : error.name);
  }
  return String(error);
}

function version(): string {
  // dist/cli/ and src/cli/ are both two levels below package.json.
  const file = new URL('../../package.json', import.meta.url);
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
