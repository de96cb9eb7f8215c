/** The OpenAPI 3.1 document, generated from the route schemas, and the browsable docs page. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ERROR_CATALOGUE, TOKEN_ERROR_CODES } from '../errors.js';
import { accountComponents } from '../account/account.js';
import { FIELD_ERROR_CODES } from '../payload/codes.js';

function catalogueMarkdown(): string {
  const top = Object.entries(ERROR_CATALOGUE)
    .map(([code, { status, summary }]) => `| ${status} | \`${code}\` | ${summary} |`)
    .join('\n');
  const token = Object.entries(TOKEN_ERROR_CODES)
    .map(([code, meaning]) => `| \`${code}\` | ${meaning} |`)
    .join('\n');
  const fields = Object.entries(FIELD_ERROR_CODES)
    .map(([code, meaning]) => `| \`${code}\` | ${meaning} |`)
    .join('\n');
  return [
    'Every 4xx/5xx body is `{"detail", "code", "errors": [{"detail", "code", "attr"}]}`.',
    '`code` values are stable; `detail` wording may change. `attr` is the dot path of the',
    'offending input (`customers.0.landline`), or null.',
    '',
    '### Top-level codes',
    '',
    '| status | code | meaning |',
    '|---|---|---|',
    top,
    '',
    '### Field codes (in `errors[].code`)',
    '',
    '| code | meaning |',
    '|---|---|',
    fields,
    '',
    '### Token endpoint codes (GraphQL `errors[].extensions.code`)',
    '',
    'A refused `obtainToken` answers 200 with `data.obtainToken` null and one of these codes.',
    "The endpoint's 4xx/5xx bodies are in the format above; each item of their `errors` also",
    'carries `message` and `extensions.code`, as GraphQL clients read them.',
    '',
    '| code | meaning |',
    '|---|---|',
    token,
  ].join('\n');
}

export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Account import service',
        version: '1',
        description: `Migrates customer accounts from an external system, one account at a time: validate, stage, process (with a dry run), and watch progress.\n\nObtain a token with the \`obtainToken\` mutation at \`POST /v1/graphql/\` and send it as \`Authorization: Token <token>\`.\n\n## Errors\n\n${catalogueMarkdown()}`,
      },
      components: {
        // The published account and every schema it nests, each named once; the data-import
        // routes refer to them by `$ref` (src/imports/imports.schemas.ts).
        schemas: accountComponents,
        securitySchemes: {
          token: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: '`Token <access token>` (also `Bearer`, `JWT` or the bare token).',
          },
        },
      },
      tags: [
        { name: 'data-import', description: 'Validate, stage and process accounts' },
        { name: 'queries', description: 'Import status and lists' },
        {
          name: 'post-import',
          description: 'Add statements, notes and payment instructions to a created account',
        },
        { name: 'events', description: "An account's timeline and a supplier's event feed" },
        { name: 'operations', description: 'Health, readiness and documents' },
      ],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
