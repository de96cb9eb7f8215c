/** The JSON Schema of historical-statements/create. */
import { component, POST_IMPORT, postImportErrors } from '../post-import.schemas.js';

const ADDED = 'The statements were added: the body as validated (normalised)';

export const statementsSchema = {
  ...POST_IMPORT,
  operationId: 'createHistoricalStatements',
  summary: 'Add historical statements to a created account',
  body: component('HistoricalStatements'),
  response: {
    // What serialises the answer: the serialiser cannot resolve a component, so the document
    // shows the published schema instead (documentStatements).
    201: { description: ADDED, type: 'object', additionalProperties: true },
    ...postImportErrors(['historical_statement_already_exists']),
  },
};

/** historical-statements/create as the OpenAPI document shows it: 201 is HistoricalStatements. */
export function documentStatements({ url }: { url: string }) {
  const response = {
    ...statementsSchema.response,
    201: { description: ADDED, ...component('HistoricalStatements') },
  };
  return { url, schema: { ...statementsSchema, response } };
}
