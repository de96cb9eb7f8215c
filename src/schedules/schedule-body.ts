/**
 * The v2 request bodies (`ScheduleAccountCreation`, `ValidateAccount`): the account they wrap,
 * handed to the v1 staging service as JSON text, and their own fields checked here. Errors
 * inside the account are reported under `payload.` (`payload.customers.0.email`), those of
 * the task parameters under `task_params.`, so each `attr` names a place in the body as sent
 * (docs/interface.md, v2).
 */
import { TaskParameters } from '../account/schema/generated.js';
import type { FieldError } from '../errors.js';
import {
  JsonText,
  LARGE_BODY_BYTES,
  LargeJsonText,
  parseJsonText,
  requireObjectBody,
  type NulPath,
} from '../http/json-body.js';
import { runType, startRun } from '../payload/run.js';
import { isObject } from '../payload/validators.js';

/** The account a v2 body wraps, ready for the staging service. */
export interface WrappedAccount {
  /** The account as sent, as an object (an empty one when the body gives none). */
  readonly payload: Record<string, unknown>;
  /** The same, as the JSON text a stage or validation reads. */
  readonly text: JsonText;
  /** Where the account holds U+0000, relative to the account. */
  readonly nulPaths: NulPath[] | undefined;
  /** Whether the body gives an account (an object at `payload`). */
  readonly given: boolean;
}

/** A v2 body as read: its account, its own field errors, and its normalised task parameters. */
export interface V2Body {
  readonly account: WrappedAccount;
  /** Errors of the body outside the account (missing or unknown fields, task parameters). */
  readonly errors: FieldError[];
  readonly taskParams: TaskParams | undefined;
}

/** The task parameters, normalised: the window is whole (its defaults filled in). */
export interface TaskParams {
  readonly is_dry_run: boolean;
  readonly schedule_window_start: string;
  readonly schedule_window_end: string;
}

/** `attr` placed under `prefix` (`payload`, `task_params`); null (the whole part) is the prefix. */
export function under(prefix: string, attr: string | null): string {
  return attr === null ? prefix : `${prefix}.${attr}`;
}

const prefixed = (prefix: string, errors: readonly FieldError[]): FieldError[] =>
  errors.map((error) => ({ ...error, attr: under(prefix, error.attr) }));

/** The errors of an account validation, placed under `payload`. */
export const payloadErrors = (errors: readonly FieldError[]): FieldError[] =>
  prefixed('payload', errors);

const missing = (attr: string): FieldError => ({
  detail: 'This field is required.',
  code: 'required',
  attr,
});

/** Reads the account at `payload` and reports what else the body gets wrong. */
function readBody(
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
  fields: readonly string[],
): { account: WrappedAccount; errors: FieldError[]; object: Record<string, unknown> } {
  const object = requireObjectBody(body);
  const errors: FieldError[] = [];
  for (const key of Object.keys(object)) {
    if (!fields.includes(key)) {
      errors.push({ detail: 'This field is not allowed.', code: 'unknown_field', attr: key });
    }
  }
  let payload: Record<string, unknown> = {};
  if (object.payload === undefined) errors.push(missing('payload'));
  else if (!isObject(object.payload)) {
    errors.push({ detail: 'Expected an object.', code: 'invalid_type', attr: 'payload' });
  } else payload = object.payload;
  const inPayload: NulPath[] = [];
  for (const path of nulPaths ?? []) {
    if (path !== null && path.startsWith('payload.')) inPayload.push(path.slice('payload.'.length));
    else if (path !== null && path !== 'payload') {
      const detail = 'Contains the character U+0000, which cannot be stored.';
      errors.push({ detail, code: 'invalid_character', attr: path });
    }
  }
  const text = JSON.stringify(payload);
  const account = {
    payload,
    // A large account is validated on a validation thread, as a large v1 body is (the body
    // itself was parsed on the event loop: the v2 body must be opened to find the account).
    text: text.length > LARGE_BODY_BYTES ? new LargeJsonText(text) : new JsonText(text),
    nulPaths: inPayload.length > 0 ? inPayload : undefined,
    given: isObject(object.payload),
  };
  return { account, errors, object };
}

/** A `ValidateAccount` body. */
export function readValidateBody(
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Omit<V2Body, 'taskParams'> {
  const { account, errors } = readBody(body, nulPaths, ['payload']);
  return { account, errors };
}

/** Task parameters as sent, checked by their declaration: normalised, or their errors. */
export function readTaskParams(
  value: unknown,
): { ok: true; value: TaskParams } | { ok: false; errors: FieldError[] } {
  const result = runType(TaskParameters, value, startRun());
  return result.ok ? { ok: true, value: result.value as TaskParams } : result;
}

/**
 * A `ScheduleAccountCreation` body (parsed, or as the JSON text of a `jsonText` route), its
 * task parameters checked by their declaration.
 */
export function readScheduleBody(body: unknown, nulPaths: readonly NulPath[] | undefined): V2Body {
  const parsed = body instanceof JsonText ? parseJsonText(body.text) : body;
  const { account, errors, object } = readBody(parsed, nulPaths, ['payload', 'task_params']);
  if (object.task_params === undefined) {
    errors.push(missing('task_params'));
    return { account, errors, taskParams: undefined };
  }
  const result = readTaskParams(object.task_params);
  if (!result.ok) {
    const own = prefixed('task_params', result.errors);
    // U+0000 is only reported where no other error names the place (as validOrRefused does).
    const named = new Set(own.map((error) => error.attr));
    const rest = errors.filter((e) => e.code !== 'invalid_character' || !named.has(e.attr));
    return { account, errors: [...rest, ...own], taskParams: undefined };
  }
  return { account, errors, taskParams: result.value };
}
