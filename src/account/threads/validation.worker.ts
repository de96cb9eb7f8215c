/**
 * A validation thread (validation-threads.ts): checks payloads against the supplier rules and
 * the platform data it was last sent.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { accountCheckOf, type CheckedAccount } from './account-json.js';
import { runLargeBodyJob, type LargeBodyJob } from './large-bodies.js';
import {
  platformData,
  platformDataFrom,
  type PlatformData,
  type SupplierRule,
} from '../../platform/platform-data.js';
import { catalogueOf } from '../../reference/reference.catalogue.js';
import type { FromValidationThread, ToValidationThread } from './validation-threads.js';

const port = parentPort;
if (port === null) throw new Error('validation.worker.js runs as a worker thread only');

/** The nice value of the large bodies' thread: the lowest priority. */
const LARGE_BODY_PRIORITY = 19;

// Linux only: there a thread has a priority of its own, and this lowers this thread's alone;
// elsewhere it would lower the whole service's.
const lowPriority = (workerData as { lowPriority?: boolean } | undefined)?.lowPriority === true;
if (lowPriority && process.platform === 'linux') {
  try {
    setPriority(LARGE_BODY_PRIORITY);
  } catch {
    // Where the system refuses, the thread runs at the process's priority.
  }
}

let rules = new Map<string, SupplierRule>();
const ruleOf = (code: string): SupplierRule | undefined => rules.get(code);
// Sent before the first payload that needs it.
let platform: PlatformData = platformData(catalogueOf(0, []), 0);

port.on('message', (message: ToValidationThread) => {
  if (message.kind === 'suppliers') {
    rules = new Map(message.rules);
    return;
  }
  if (message.kind === 'platform') {
    platform = platformDataFrom(message.data);
    return;
  }
  const answer: FromValidationThread =
    message.kind === 'check'
      ? { id: message.id, kind: 'check', account: checked(message.text, message.wrapped) }
      : { id: message.id, kind: 'large', answer: answered(message.job) };
  port.postMessage(answer);
});

function answered(job: LargeBodyJob) {
  try {
    return runLargeBodyJob(job, platform);
  } catch {
    // The event loop runs the job again, and reports there what went wrong.
    return undefined;
  }
}

function checked(text: string, wrapped: boolean): CheckedAccount | undefined {
  try {
    return accountCheckOf(wrapped)(text, ruleOf, platform);
  } catch {
    // The event loop checks the payload again, and reports there what went wrong.
    return undefined;
  }
}
