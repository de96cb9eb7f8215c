/** A validation thread (validation-threads.ts): checks payloads against the regions it was sent. */
import { parentPort } from 'node:worker_threads';
import { checkAccountJson, type CheckedAccount } from './account-json.js';
import { runLargeBodyJob, type LargeBodyJob } from './large-bodies.js';
import type { FromValidationThread, ToValidationThread } from './validation-threads.js';

const port = parentPort;
if (port === null) throw new Error('validation.worker.js runs as a worker thread only');

let regions = new Map<string, string>();
const regionOf = (code: string): string | undefined => regions.get(code);

port.on('message', (message: ToValidationThread) => {
  if (message.kind === 'regions') {
    regions = new Map(message.regions);
    return;
  }
  const answer: FromValidationThread =
    message.kind === 'check'
      ? { id: message.id, kind: 'check', account: checked(message.text) }
      : { id: message.id, kind: 'large', answer: answered(message.job) };
  port.postMessage(answer);
});

function answered(job: LargeBodyJob) {
  try {
    return runLargeBodyJob(job);
  } catch {
    // The event loop runs the job again, and reports there what went wrong.
    return undefined;
  }
}

function checked(text: string): CheckedAccount | undefined {
  try {
    return checkAccountJson(text, regionOf);
  } catch {
    // The event loop checks the payload again, and reports there what went wrong.
    return undefined;
  }
}
