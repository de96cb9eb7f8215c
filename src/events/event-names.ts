/**
 * The names of account events, in the published form `EVENT_ACCOUNT_IMPORT_PROCESS_…`. One
 * list, so the timeline, the feed and the v2 status all speak of the same events, and a
 * consumer can rely on the set (docs/interface.md, Account events).
 */
export const EVENT_NAMES = [
  /** A stage stored a new version (data: `version`, `created`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED',
  /** A stage was refused (data: `code`, and `errors` as `{code, attr}`; never the payload). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_STAGE_REFUSED',
  /** Creation was scheduled in a window (v2; data: the window and `is_dry_run`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_SCHEDULED',
  /** A pending schedule was cancelled (v2). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_CANCELLED',
  /** Creation started (v2: a worker claimed the account). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED',
  /** The account was created (data: `service_account_number`, `via`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_COMPLETED',
  /** Creation failed or was refused (data: `code`, `detail`, `via`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED',
  /** A dry run would have created the account and kept nothing (data: `via`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_SUCCEEDED',
  /** A dry run found the account could not be created (data: `code`, `detail`, `via`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_ERRORED',
  /** The operator marked the account to be skipped (data: `reason`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_SKIP_MARKED',
  /** The operator removed the skip mark. */
  'EVENT_ACCOUNT_IMPORT_PROCESS_SKIP_REMOVED',
  /** Post-import: historical statements were added (data: `statement_ids`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_STATEMENTS_ADDED',
  /** Post-import: notes were added (data: `created`, `already_existing`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_NOTES_ADDED',
  /** Post-import: a payment instruction was added (data: `type`, `reference`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_PAYMENT_INSTRUCTION_ADDED',
  /** Post-import: transactions were added (data: `transaction_ids`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_TRANSACTIONS_ADDED',
  /** Post-import: registration flows were requested (data: `mpxns`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_REGISTRATION_REQUESTED',
  /** The industry adapter moved a meter point's registration (data: `mpxn`, `from`, `to`, `detail`). */
  'EVENT_ACCOUNT_IMPORT_PROCESS_REGISTRATION_STATUS_CHANGED',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];
