/** The body of the process endpoint (docs/interface.md, Endpoints). */
import { runType, startRun, type ValidationResult } from './run.js';
import { defaulted, object, optional, required } from './object.js';
import { externalAccountNumber } from './identifiers.js';
import { bool, str } from './scalars.js';

export interface ProcessRequest {
  external_account_number: string;
  import_supplier_code: string;
  /** Left out when the import supplier allocates its accounts to a team itself. */
  operations_team_name?: string;
  dry_run: boolean;
}

const processRequest = object(
  {
    external_account_number: required(externalAccountNumber),
    import_supplier_code: required(str(255)),
    operations_team_name: optional(
      str(255),
      'An existing operations team; left out when the import supplier allocates its accounts to a team itself.',
    ),
    dry_run: defaulted(bool, false, 'When true, creation is tested and rolled back.'),
  },
  { description: 'Creates the account from the staged data.' },
);

/** Validates a process request; dry_run defaults to false. */
export function validateProcessRequest(input: unknown): ValidationResult<ProcessRequest> {
  return runType(processRequest, input, startRun());
}

/** JSON Schema of the process request body. */
export const processRequestJsonSchema: object = {
  title: 'ProcessRequest',
  ...processRequest.schema,
};
