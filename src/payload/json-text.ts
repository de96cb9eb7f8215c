/**
 * A JSON body's text read as the service reads every body, without Fastify: parsed strictly
 * (broken JSON and repeated keys refused), and searched for U+0000. The body parser
 * (http/json-body.ts) and the validation threads (large-bodies.ts) share it.
 */
import { ServiceError } from '../errors.js';
import { repeatedKey } from '../shared/json-keys.js';

/**
 * Bodies above this many bytes are read off the event loop on a `largeBodiesOffLoop` route. An
 * account is a few kB, so real payloads keep the direct path, with no message. Below it, a body
 * of nothing but unknown keys still costs the loop 5–40 ms (6,500 keys, on a busy two-core
 * machine): the bound is that, not the 200–600 ms of a 1 MiB one.
 */
export const LARGE_BODY_BYTES = 64 * 1024;

/** Where a body holds U+0000: the dot path of a string or key holding it (null: the body). */
export type NulPath = string | null;

/** At most this many places are reported. */
const MAX_NUL_PATHS = 100;

/** How much of a repeated key an error's detail shows. */
const MAX_KEY_SHOWN = 100;

/** JSON.parse, refusing broken JSON, and keys repeated in an object, with 400 malformed_request. */
export function parseJsonText(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${error.message}` : '';
    throw new ServiceError({
      code: 'malformed_request',
      detail: `The body is not valid JSON${reason}.`,
    });
  }
  const repeated = repeatedKey(text, parsed);
  if (repeated !== undefined) {
    // The path is in `attr` only: a body nested a million deep has a path as long as itself.
    const key = JSON.stringify(repeated.key.slice(0, MAX_KEY_SHOWN));
    const detail = `The body gives the key ${key} more than once in one object (at attr); a key may appear only once.`;
    throw new ServiceError({
      code: 'malformed_request',
      detail,
      errors: [{ detail, code: 'malformed_request', attr: repeated.path }],
    });
  }
  return parsed;
}

/**
 * The dot paths of the strings and keys containing U+0000 (a key's path is that of its value,
 * where an unknown field is reported too), in document order, at most MAX_NUL_PATHS of them.
 * Iterative: a body may nest hundreds of thousands of levels.
 */
export function nulCharacterPaths(value: unknown): NulPath[] {
  const found: NulPath[] = [];
  const stack: [unknown, NulPath, boolean][] = [[value, null, false]];
  while (stack.length > 0 && found.length < MAX_NUL_PATHS) {
    const [current, path, badKey] = stack.pop() as [unknown, NulPath, boolean];
    if (badKey || (typeof current === 'string' && current.includes('\u0000'))) {
      found.push(path);
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        stack.push([child, path === null ? key : `${path}.${key}`, key.includes('\u0000')]);
      }
    }
  }
  return found;
}

/** The refusal of a body that is JSON but not an object. */
export const notAnObject = (): ServiceError =>
  new ServiceError({ code: 'malformed_request', detail: 'The body must be a JSON object.' });
