/** Entry point of the `account-import` CLI. A new command group is one more line in GROUPS. */
import { registerAccount } from './account.js';
import type { CommandGroup } from './common.js';
import { registerEvents } from './events.js';
import { registerLoad } from './load.js';
import { registerMigrate } from './migrate.js';
import { registerOrg } from './org.js';
import { registerReference } from './reference.js';
import { registerRegistration } from './registration.js';
import { EXIT_OK, runCli } from './run.js';
import { registerSample } from './sample.js';
import { registerServe } from './serve.js';
import { registerSettings } from './settings.js';
import { registerSkip } from './skip.js';
import { registerSupplier } from './supplier.js';
import { registerTeam } from './team.js';
import { registerWorker } from './worker.js';

const GROUPS: readonly CommandGroup[] = [
  registerServe,
  registerWorker,
  registerMigrate,
  registerSupplier,
  registerTeam,
  registerOrg,
  registerSkip,
  registerEvents,
  registerReference,
  registerSettings,
  registerAccount,
  registerRegistration,
  registerLoad,
  registerSample,
];

const code = await runCli(GROUPS, process.argv.slice(2));
// On failure exit now, whatever handle is still open; on success `serve` keeps running.
if (code === EXIT_OK) process.exitCode = code;
else process.exit(code);
