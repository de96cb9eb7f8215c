/**
 * The token interface: a GraphQL endpoint at /v1/graphql/ with the `obtainToken` mutation,
 * rate limited per client IP.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, RouteOptions } from 'fastify';
import {
  GraphQLError,
  GraphQLScalarType,
  NoSchemaIntrospectionCustomRule,
  valueFromASTUntyped,
  type ASTVisitor,
  type ValidationContext,
} from 'graphql';
import mercurius, { type IResolvers, type MercuriusContext } from 'mercurius';
import type { AppContext } from '../context.js';
import { errorResponse } from '../http/error-schemas.js';
import {
  formatGraphqlErrors,
  graphqlError,
  handleGraphqlRouteError,
  inErrorFormat,
  rateLimitError,
  withoutSuggestions,
} from './graphql-errors.js';
import { boundedDocument, checkGraphqlRequest } from './graphql-limits.js';
import {
  CredentialError,
  obtainTokenWithApiKey,
  obtainTokenWithRefreshToken,
  type TokenPair,
} from './token.service.js';

const SCHEMA = /* GraphQL */ `
  "Any JSON value; used for the claims of an access token."
  scalar JSON

  "Exactly one of apiKey or refreshToken."
  input ObtainTokenInput {
    apiKey: String
    refreshToken: String
  }

  type ObtainToken {
    "Access token (a signed JWT) for the REST interface: Authorization: Token <token>."
    token: String!
    "Single-use token that obtains the next pair; it is spent when used."
    refreshToken: String!
    "Unix timestamp (seconds) at which refreshToken expires."
    refreshExpiresIn: Int!
    "The claims of token."
    payload: JSON!
  }

  type Query {
    "Always 'pong'; lets clients check the endpoint."
    ping: String!
  }

  type Mutation {
    obtainToken(input: ObtainTokenInput!): ObtainToken
  }
`;

const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

interface ObtainTokenArgs {
  input: { apiKey?: string | null; refreshToken?: string | null };
}

async function obtainToken(
  ctx: AppContext,
  { input }: ObtainTokenArgs,
  { reply }: MercuriusContext,
): Promise<TokenPair> {
  const { apiKey, refreshToken } = input;
  const hasApiKey = apiKey !== undefined && apiKey !== null;
  const hasRefreshToken = refreshToken !== undefined && refreshToken !== null;
  if (hasApiKey === hasRefreshToken) {
    throw graphqlError('invalid_input', 'Provide exactly one of apiKey or refreshToken.');
  }
  const grant = hasApiKey ? 'api_key' : 'refresh_token';
  try {
    const pair = hasApiKey
      ? await obtainTokenWithApiKey(ctx, apiKey)
      : await obtainTokenWithRefreshToken(ctx, refreshToken as string);
    reply.log.info({ organisationId: Number(pair.payload.sub), grant }, 'token issued');
    return pair;
  } catch (error) {
    if (!(error instanceof CredentialError)) throw error;
    // The code only: the credential itself never reaches the log.
    reply.log.info({ code: error.code, grant }, 'token refused');
    throw graphqlError(error.code, error.message);
  }
}

/**
 * The rate limit counts requests, so a request may obtain one token: with aliases
 * (`a: obtainToken(…) b: obtainToken(…)`) one request could otherwise try hundreds of keys or
 * refresh tokens, and issue as many tokens, for one count. Every selection of the field in the
 * document counts, fragments included, so none can run twice unseen.
 */
function oneTokenPerRequest(context: ValidationContext): ASTVisitor {
  let selections = 0;
  return {
    Field(node) {
      if (node.name.value !== 'obtainToken' || ++selections !== 2) return;
      context.reportError(
        new GraphQLError('A request may obtain one token only: select obtainToken once.', {
          nodes: [node],
          extensions: { code: 'invalid_input' },
        }),
      );
    },
  };
}

/** A GraphQL result: `data`, and `errors` (each with `extensions.code`) when something failed. */
const graphqlResult = {
  type: 'object',
  properties: {
    data: { type: ['object', 'null'], additionalProperties: true },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          message: { type: 'string' },
          extensions: { type: 'object', properties: { code: { type: 'string' } } },
        },
        required: ['message'],
      },
    },
  },
  additionalProperties: true,
} as const;

/** The operationId and summary of each method of the GraphQL endpoint, in the OpenAPI document. */
const GRAPHQL_OPERATIONS: Record<string, { operationId: string; summary: string }> = {
  POST: { operationId: 'graphql', summary: 'GraphQL: the obtainToken mutation' },
  GET: { operationId: 'graphqlGet', summary: 'GraphQL over GET: queries only (a mutation is 405)' },
};

/**
 * Adds the responses to the OpenAPI description of the routes mercurius registers (it gives
 * them none). Documentation only: serialisation is left as mercurius does it.
 */
function documentResponses({
  schema,
  url,
  route,
}: {
  schema: object;
  url: string;
  route: { method: string | string[] };
}) {
  const operation = GRAPHQL_OPERATIONS[String(route.method)];
  if (operation === undefined)
    throw new Error(`undocumented GraphQL method ${String(route.method)}`);
  return {
    url,
    schema: {
      ...schema,
      ...operation,
      response: {
        200: {
          description:
            'The result; a refused obtainToken has `errors[].extensions.code` (token endpoint codes)',
          ...graphqlResult,
        },
        400: errorResponse(400, ['malformed_request', 'invalid_graphql_request']),
        405: errorResponse(405),
        413: errorResponse(413),
        415: errorResponse(415),
        429: errorResponse(429),
      },
    },
  };
}

/** GraphiQL's page and scripts are a tool, not operations: the OpenAPI document leaves them out. */
function hideGraphiql(route: RouteOptions): void {
  if (route.url.startsWith('/v1/graphiql')) route.schema = { ...route.schema, hide: true };
}

/** Mounts the token endpoint at POST /v1/graphql/ (GraphiQL at /v1/graphiql outside production). */
export async function registerTokenGraphql(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const resolvers: IResolvers = {
    JSON: JSONScalar,
    Query: { ping: () => 'pong' },
    Mutation: {
      obtainToken: (_root, args: ObtainTokenArgs, context: MercuriusContext) =>
        obtainToken(ctx, args, context),
    },
  };

  // Nor does an error message suggest names ("Did you mean …?") in production. (A variable,
  // as mercurius' types predate the option; maxErrors is graphql's default.)
  const validateOptions = { maxErrors: 100, hideSuggestions: ctx.config.production };

  // Encapsulated, so the limiter's onRoute hook and decorators touch only these routes.
  await app.register(
    async (scope) => {
      await scope.register(rateLimit, { global: false, errorResponseBuilder: rateLimitError });
      // Before mercurius' own handling, which assumes a well-formed request.
      scope.addHook('preValidation', checkGraphqlRequest);
      scope.addHook('preSerialization', inErrorFormat);
      scope.addHook('onRoute', hideGraphiql);
      if (ctx.config.production) scope.addHook('preSerialization', withoutSuggestions);
      await scope.register(mercurius, {
        schema: SCHEMA,
        resolvers,
        path: '/graphql/',
        graphiql: !ctx.config.production,
        // In production the schema is not open to exploration, as GraphiQL is not: it is
        // documented (docs/decisions.md), and clients only ever send obtainToken.
        validationRules: [
          oneTokenPerRequest,
          boundedDocument,
          ...(ctx.config.production ? [NoSchemaIntrospectionCustomRule] : []),
        ],
        graphql: { validateOptions },
        errorFormatter: formatGraphqlErrors,
        errorHandler: handleGraphqlRouteError,
        // Mercurius adds its routes itself; this is how they get the per-route limit.
        additionalRouteOptions: {
          config: {
            rateLimit: { max: ctx.config.tokenRateLimit, timeWindow: 60_000 },
            swaggerTransform: documentResponses,
          },
        },
      });
    },
    { prefix: '/v1' },
  );
}
