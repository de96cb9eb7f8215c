/** What the JSON Schemas of the post-import routes share: their refusals and their body. */
import type { ErrorCode } from '../errors.js';
import { errors, TOKEN_SECURITY } from '../http/error-schemas.js';
import { COMPONENTS_PATH } from '../payload/named.js';

/** A published schema of the account, a component of the OpenAPI document. */
export const component = (name: string) => ({ $ref: `${COMPONENTS_PATH}${name}` }) as const;

/** How every post-import route refuses, besides its own 400 codes (created-account.ts). */
export function postImportErrors(own400: readonly ErrorCode[] = []) {
  return errors(
    {
      400: [
        'account_failed_validation',
        'malformed_request',
        'import_supplier_migration_not_ongoing',
        ...own400,
      ],
      404: ['import_supplier_not_found', 'import_process_does_not_exist', 'account_not_found'],
    },
    { body: true },
  );
}

/** The parts of a post-import route's schema that every one repeats. */
export const POST_IMPORT = { tags: ['post-import'], security: TOKEN_SECURITY } as const;
