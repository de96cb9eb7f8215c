/**
 * v2 scheduling and validation (docs/interface.md, v2): the account a body wraps is validated
 * and staged by the v1 staging service, then its schedule is written.
 */
import {
  confirmSupplierAccess,
  refuseConfirmed,
  supplierCodeOf,
  type Caller,
} from '../auth/access.js';
import type { AppContext } from '../context.js';
import { ServiceError, validationFailed, type FieldError } from '../errors.js';
import { JsonText, type NulPath } from '../http/json-body.js';
import { namedAccount, recordRefusedStage, supplierRefused } from '../events/refusals.js';
import type { ImportResources } from '../imports/imports.wiring.js';
import { inProgress } from '../imports/imports.errors.js';
import {
  confirmCheckedStage,
  confirmStage,
  stageAccount,
  validateAccountText,
  type StageAccess,
} from '../imports/staging/staging.service.js';
import { allocatedTeam } from '../platform/platform-data.js';
import {
  payloadErrors,
  readScheduleBody,
  readTaskParams,
  readValidateBody,
  type TaskParams,
  type WrappedAccount,
} from './schedule-body.js';
import { companionWrite } from '../imports/staging/staging.repository.js';
import { SCHEDULE_WITH_STAGE } from './schedules.repository.js';
import type { TeamIds } from './team-ids.js';

/** What the scheduling routes share with the import routes, and the teams they remember. */
export interface ScheduleResources extends Pick<ImportResources, 'suppliers' | 'threads'> {
  readonly teams: TeamIds;
}

/** The answer to a schedule: the account and its schedule's status. */
export interface ScheduledAccount {
  import_supplier_code: string;
  external_account_number: string;
  status: 'PENDING';
}

/** The codes the v2 scheduling reports among an account's field errors (the team's). */
export const SCHEDULE_FIELD_CODES = [
  'operations_team_name_does_not_exist',
  'operations_team_should_be_provided',
] as const;

const TEAM_ATTR = 'payload.operations_team_name';

/** The account's errors as `payload.` field errors; none when it is valid. */
async function accountErrors(
  ctx: AppContext,
  { suppliers, threads }: ScheduleResources,
  caller: Caller,
  account: WrappedAccount,
): Promise<FieldError[]> {
  try {
    await validateAccountText(ctx, suppliers, threads, caller, account.text, account.nulPaths);
    return [];
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'account_failed_validation') {
      return payloadErrors(error.errors);
    }
    throw error;
  }
}

/**
 * Throws 400 with every error of the body when `errors` (those outside the account) are not
 * empty, or when `accountAtFault` and the account has errors of its own, the account's own
 * among them; the caller is confirmed either way.
 */
async function refuseWithAccountErrors(
  ctx: AppContext,
  resources: ScheduleResources,
  caller: Caller,
  account: WrappedAccount,
  errors: FieldError[],
  accountAtFault = false,
): Promise<void> {
  if (errors.length === 0 && !accountAtFault) return;
  if (!account.given) await refuseConfirmed(ctx.db, caller, validationFailed(errors, 'request'));
  const all = [...(await accountErrors(ctx, resources, caller, account)), ...errors];
  if (all.length > 0) throw validationFailed(all, 'request');
}

/**
 * `ValidateAccount`: the account checked with every rule, nothing stored; its team as well, as
 * a schedule of it would check it, so that what validates is what may be scheduled.
 */
export async function validateWrapped(
  ctx: AppContext,
  resources: ScheduleResources,
  caller: Caller,
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<void> {
  let read;
  try {
    read = readValidateBody(body, nulPaths);
  } catch (refusal) {
    return refuseConfirmed(ctx.db, caller, refusal);
  }
  const { account } = read;
  const team = account.given ? await teamOf(ctx, resources, caller, account.payload) : undefined;
  await refuseWithAccountErrors(ctx, resources, caller, account, [
    ...(team?.errors ?? []),
    ...read.errors,
  ]);
  const errors = await accountErrors(ctx, resources, caller, account);
  if (errors.length > 0) throw validationFailed(errors, 'request');
}

/**
 * The team an account goes to: the one it names (which must exist), else its supplier's
 * auto-allocation team, as the supplier is now; field errors when neither. An account whose
 * supplier is not found, or whose team field is no string, gets no error here: its validation
 * reports it.
 */
async function teamOf(
  ctx: AppContext,
  { suppliers, teams }: ScheduleResources,
  caller: Caller,
  payload: Record<string, unknown>,
): Promise<{ teamId?: number; errors: FieldError[] }> {
  const named = payload.operations_team_name;
  // U+0000 names no team (and PostgreSQL could not compare it): the validation reports it.
  if (typeof named === 'string' && named.includes('\u0000')) return { errors: [] };
  if (typeof named === 'string' && named.trim() !== '') {
    const teamId = await teams.idOf(ctx.db.kysely, named.trim());
    if (teamId !== undefined) return { teamId, errors: [] };
    const detail = `No operations team is named "${named.trim()}".`;
    return { errors: [{ detail, code: 'operations_team_name_does_not_exist', attr: TEAM_ATTR }] };
  }
  if (named !== undefined && typeof named !== 'string') return { errors: [] };
  const code = supplierCodeOf(payload.import_supplier);
  if (code === undefined) return { errors: [] };
  // Read afresh, not from the remembered suppliers: an operator's change of the setting counts
  // at once. Only accounts naming no team pay for it.
  const { supplier, caller: confirmed } = await confirmSupplierAccess(ctx.db, caller, code);
  if (supplier === undefined) return { errors: [] };
  suppliers.remember(supplier, confirmed);
  const team = allocatedTeam(supplier);
  const teamId = team === null ? undefined : await teams.idOf(ctx.db.kysely, team);
  if (teamId !== undefined) return { teamId, errors: [] };
  const detail = `Import supplier ${supplier.code} allocates no operations team: name one in the account.`;
  return { errors: [{ detail, code: 'operations_team_should_be_provided', attr: TEAM_ATTR }] };
}

/** A refusal of the staging service, its field errors placed under `payload`. */
function asV2Refusal(error: unknown): unknown {
  if (error instanceof ServiceError && error.code === 'account_failed_validation') {
    return validationFailed(payloadErrors(error.errors), 'request');
  }
  return error;
}

/** The schedule written with the account's stage, for these task parameters and team. */
const scheduleWith = (taskParams: TaskParams, teamId: number) =>
  companionWrite(SCHEDULE_WITH_STAGE, {
    scheduleIsDryRun: taskParams.is_dry_run ? 1 : 0,
    windowStart: Date.parse(taskParams.schedule_window_start),
    windowEnd: Date.parse(taskParams.schedule_window_end),
    teamId,
    scheduledData: JSON.stringify(taskParams),
  });

/** The answer to a stage that wrote its schedule; 409 when a worker had claimed it meanwhile. */
async function scheduledBy(
  ctx: AppContext,
  { suppliers, threads }: ScheduleResources,
  access: StageAccess,
): Promise<ScheduledAccount> {
  const staged = await stageAccount(ctx, suppliers, threads, access, asV2Refusal);
  // A worker claimed the account's schedule after the stage's guard let the stage through: the
  // data is staged, and the worker creates it.
  if (staged.companionWrote !== true) throw inProgress(staged.external_account_number);
  return {
    import_supplier_code: staged.import_supplier_code,
    external_account_number: staged.external_account_number,
    status: 'PENDING',
  };
}

/**
 * Records a schedule refused before its stage (its window, its team, or its account's errors
 * found with them) as the refused stage it is (STAGE_REFUSED, with the body's codes, `payload.`
 * and `task_params.` included), as the staging service records the refusals it finds itself:
 * when the account names a supplier the caller may use and a number an account could have.
 */
async function recordRefusedSchedule(
  ctx: AppContext,
  caller: Caller,
  { payload }: WrappedAccount,
  refusal: unknown,
): Promise<void> {
  if (!(refusal instanceof ServiceError) || refusal.status >= 500 || supplierRefused(refusal)) {
    return;
  }
  const code = supplierCodeOf(payload.import_supplier);
  const externalAccountNumber = namedAccount(payload.external_account_number);
  if (code === undefined || externalAccountNumber === undefined) return;
  const { supplier } = await confirmSupplierAccess(ctx.db, caller, code);
  if (supplier === undefined) return;
  const account = { supplierId: supplier.id, externalAccountNumber };
  await recordRefusedStage(ctx.db, account, refusal, caller.requestId);
}

/**
 * `ScheduleAccountCreation`: the account is validated and staged as a v1 stage would (its
 * refusals are v1's), and its schedule written with the SCHEDULED event in the same atomic
 * write as the stage (the stage's companion: one statement on PostgreSQL). The body comes as
 * JSON text: the common case is checked whole on a validation thread (scheduleChecked).
 */
export async function scheduleAccount(
  ctx: AppContext,
  resources: ScheduleResources,
  caller: Caller,
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<ScheduledAccount> {
  const checked = await scheduleChecked(ctx, resources, caller, body, nulPaths);
  if (checked !== undefined) return checked;
  let read;
  try {
    read = readScheduleBody(body, nulPaths);
  } catch (refusal) {
    return refuseConfirmed(ctx.db, caller, refusal);
  }
  const { account, taskParams } = read;
  const team = account.given ? await teamOf(ctx, resources, caller, account.payload) : undefined;
  const errors = [...(team?.errors ?? []), ...read.errors];
  // A team not found without an error of its own (no supplier the caller may use, a team name
  // that is no text): the account's validation says why.
  const noTeam = team?.teamId === undefined;
  try {
    await refuseWithAccountErrors(ctx, resources, caller, account, errors, noTeam);
  } catch (refusal) {
    await recordRefusedSchedule(ctx, caller, account, refusal);
    throw refusal;
  }
  // Both are known once the body has no error.
  if (taskParams === undefined || team?.teamId === undefined) {
    throw new Error('a valid body without its task parameters or team');
  }
  const { suppliers, threads } = resources;
  const { text, nulPaths: inAccount } = account;
  const companion = scheduleWith(taskParams, team.teamId);
  let access;
  try {
    access = await confirmStage(ctx, suppliers, threads, caller, text, inAccount, companion);
  } catch (error) {
    throw asV2Refusal(error);
  }
  return scheduledBy(ctx, resources, access);
}

/**
 * The common case of a schedule, the long way's answer in less work: a body that is only
 * `{payload, task_params}`, with a valid account, valid task parameters and a team, is parsed
 * and its account checked on a validation thread, as a v1 stage's body is, so that the event
 * loop parses nothing. Undefined for any other body (nothing was written, and the caller is
 * not confirmed yet): the long way reads it again and reports every error.
 */
async function scheduleChecked(
  ctx: AppContext,
  resources: ScheduleResources,
  caller: Caller,
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<ScheduledAccount | undefined> {
  if (!(body instanceof JsonText) || nulPaths !== undefined) return undefined;
  const since = Date.now();
  const checked = await resources.threads.check(body.text, resources.suppliers, true);
  if (checked?.wrapper === undefined) return undefined;
  // Only for a supplier this caller was found granted before (KnownSuppliers): another
  // organisation's code then takes the long way at once, as an unknown code does, after the
  // same check on the thread, so the two cannot be told apart by the time they take.
  if (resources.suppliers.ongoing(checked.supplierCode, caller) === undefined) return undefined;
  const taskParams = readTaskParams(checked.wrapper.taskParams);
  if (!taskParams.ok) return undefined;
  const named = {
    operations_team_name: checked.wrapper.teamName,
    import_supplier: checked.supplierCode,
  };
  const { teamId } = await teamOf(ctx, resources, caller, named);
  if (teamId === undefined) return undefined;
  const companion = scheduleWith(taskParams.value, teamId);
  const access = await confirmCheckedStage(ctx, resources.suppliers, caller, checked, {
    since,
    companion,
  });
  return scheduledBy(ctx, resources, access);
}
