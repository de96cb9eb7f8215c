/**
 * What the token endpoint accepts before GraphQL runs: the shape of a request, and how much
 * work its document may ask for. The endpoint takes no credentials before it answers, so
 * neither a request that is not a GraphQL request nor a document of thousands of aliases may
 * reach the executor.
 */
import type { FastifyRequest } from 'fastify';
import {
  GraphQLError,
  getNamedType,
  getOperationAST,
  Kind,
  parse,
  getNullableType,
  isListType,
  isObjectType,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
} from 'graphql';
import { ServiceError } from '../errors.js';
import { repeatedKey } from '../shared/json-keys.js';
import { isObject } from '../payload/validators.js';

/** The token endpoint's path (route as registered). */
export const GRAPHQL_PATH = '/v1/graphql/';

/**
 * The longest document accepted: GraphiQL's introspection query is about 2,000 characters,
 * a request for a token a few hundred. Parsing and validating take time in proportion (or
 * worse) to the document, before any rule can refuse it: 64,000 aliases took 400 ms.
 */
export const MAX_DOCUMENT_CHARS = 16 * 1024;
/**
 * The deepest a document may nest its braces, brackets and parentheses. graphql-js parses and
 * validates recursively, and a document nested a few thousand deep overflowed the stack;
 * GraphiQL's introspection query nests about 14 deep, a request for a token 3.
 */
export const MAX_DOCUMENT_DEPTH = 64;
/** How many items a list field is reckoned to return (see DocumentCost). */
const LIST_ITEMS = 10;
/**
 * The most a document may cost. GraphiQL's introspection query costs about 50,000 (49,432,
 * or 51,853 with every option of graphql's getIntrospectionQuery); a request for a token,
 * about 10.
 */
export const MAX_DOCUMENT_COST = 100_000;

/** Absent, null, or a JSON object: what `variables` and `extensions` may be. */
const absentOrObject = (value: unknown) => value === undefined || value === null || isObject(value);

/** The JSON value of `text`; undefined when it is not JSON, or repeats a key (json-keys.ts). */
function jsonOrUndefined(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return repeatedKey(text, value) === undefined ? value : undefined;
  } catch {
    return undefined;
  }
}

const refused = (detail: string) => new ServiceError({ code: 'malformed_request', detail });

/**
 * A request's fields as the GraphQL-over-HTTP convention has them: `query` a string,
 * `variables` an object (or, over GET, its JSON text), `operationName` a string. Anything else
 * would reach the executor as something it does not expect, and fail there with a message
 * about the executor's internals.
 */
export async function checkGraphqlRequest(request: FastifyRequest): Promise<void> {
  // GraphiQL's pages share the scope.
  if (request.routeOptions.url !== GRAPHQL_PATH) return;
  // Fastify answers HEAD with the GET route, and mercurius only keeps mutations off GET: HEAD
  // would run one (obtainToken), answering nobody, on a rate limit count of its own.
  if (request.method === 'HEAD') {
    throw new ServiceError({
      code: 'method_not_allowed',
      detail: 'HEAD is not allowed on /v1/graphql/; use GET (queries) or POST.',
      headers: { Allow: 'GET, POST' },
    });
  }
  if (request.method === 'GET') {
    const fields = request.query as Record<string, unknown>;
    for (const name of ['query', 'variables', 'operationName', 'extensions']) {
      const value = fields[name];
      if (value !== undefined && typeof value !== 'string') {
        throw refused(`Send the query parameter "${name}" once.`);
      }
    }
    if (typeof fields.query !== 'string') throw refused('Send the GraphQL document as "query".');
    checkDocumentSize(fields.query);
    // Empty is no variables (mercurius would pass the empty string on), and so is `null`.
    if (fields.variables === '') delete fields.variables;
    if (typeof fields.variables === 'string') {
      // undefined: not JSON at all (no JSON text parses to it), or a key given twice.
      const variables = jsonOrUndefined(fields.variables);
      if (variables === undefined || !absentOrObject(variables)) {
        throw refused('"variables" must be a JSON object, each key given once.');
      }
    }
    checkOperationChosen(fields.query, fields.operationName);
    return;
  }
  const body: unknown = request.body;
  if (Array.isArray(body)) {
    throw refused('Send one GraphQL request as a JSON object; batches are not supported.');
  }
  if (!isObject(body)) throw refused('The body must be a JSON object.');
  if (typeof body.query !== 'string') {
    throw refused('"query" must be a string holding the GraphQL document.');
  }
  checkDocumentSize(body.query);
  if (!absentOrObject(body.variables)) {
    throw refused('"variables" must be a JSON object.');
  }
  const { operationName } = body;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw refused('"operationName" must be a string.');
  }
  if (!absentOrObject(body.extensions)) {
    throw refused('"extensions" must be a JSON object.');
  }
}

/**
 * Over GET, refuses a document whose operation cannot be told: several without an
 * `operationName`, or an `operationName` it does not have (400 invalid_graphql_request).
 * mercurius looks the operation up before it checks that one was found. A document that does
 * not parse is left to it: it reports the syntax error.
 */
function checkOperationChosen(document: string, operationName: unknown): void {
  let parsed;
  try {
    parsed = parse(document);
  } catch {
    return;
  }
  const name = typeof operationName === 'string' && operationName !== '' ? operationName : null;
  if (getOperationAST(parsed, name) !== null) return;
  const operations = parsed.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  let detail = 'The document holds no operation.';
  if (name !== null) detail = `The document holds no operation named "${name}".`;
  else if (operations.length > 1) {
    detail = 'The document holds several operations: name the one to run in "operationName".';
  }
  throw new ServiceError({ code: 'invalid_graphql_request', detail });
}

/** Refuses a document too long or too deeply nested to be parsed (400 invalid_graphql_request). */
function checkDocumentSize(document: string): void {
  if (document.length > MAX_DOCUMENT_CHARS) {
    throw new ServiceError({
      code: 'invalid_graphql_request',
      detail: `The GraphQL document is longer than ${MAX_DOCUMENT_CHARS} characters.`,
    });
  }
  if (documentDepth(document) > MAX_DOCUMENT_DEPTH) {
    throw new ServiceError({
      code: 'invalid_graphql_request',
      detail: `The GraphQL document nests deeper than ${MAX_DOCUMENT_DEPTH} levels of braces, brackets and parentheses.`,
    });
  }
}

const OPENING = new Set(['{', '[', '(']);
const CLOSING = new Set(['}', ']', ')']);

/**
 * How deep the document's `{`, `[` and `(` nest, read in one pass without parsing: those in
 * strings, block strings and comments do not count. Stops once past the limit. An unbalanced
 * document is left to the parser, which reports it.
 */
export function documentDepth(document: string): number {
  let depth = 0;
  let deepest = 0;
  for (let at = 0; at < document.length && deepest <= MAX_DOCUMENT_DEPTH; at++) {
    const char = document[at] as string;
    if (OPENING.has(char)) {
      deepest = Math.max(deepest, ++depth);
    } else if (CLOSING.has(char)) {
      depth = Math.max(0, depth - 1);
    } else if (char === '#') {
      const end = document.indexOf('\n', at);
      at = end === -1 ? document.length : end;
    } else if (char === '"') {
      at = stringEnd(document, at);
    }
  }
  return deepest;
}

const BLOCK_QUOTE = '"""';

/** Where the string or block string opened at `start` ends (its last quote). */
function stringEnd(document: string, start: number): number {
  if (document.startsWith(BLOCK_QUOTE, start)) {
    // A block string ends at the first """ not escaped as \""".
    for (let at = start + 3; ;) {
      const end = document.indexOf(BLOCK_QUOTE, at);
      if (end === -1) return document.length;
      if (document[end - 1] !== '\\') return end + 2;
      at = end + 3;
    }
  }
  for (let at = start + 1; at < document.length; at++) {
    const char = document[at];
    if (char === '\\') at++;
    else if (char === '"' || char === '\n') return at;
  }
  return document.length;
}

function fieldOf(
  schema: GraphQLSchema,
  parent: GraphQLObjectType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (name === '__typename') return TypeNameMetaFieldDef;
  if (parent === schema.getQueryType()) {
    if (name === '__schema') return SchemaMetaFieldDef;
    if (name === '__type') return TypeMetaFieldDef;
  }
  return parent.getFields()[name];
}

/**
 * What a selection set asks of the executor: each field counts one, and what a field selects
 * counts once for each item it may return (LIST_ITEMS for a list). Nested lists multiply, as
 * the executor's work does: `__schema { types { fields { type { fields … } } } }` grows tenfold
 * with each level. Fragments count wherever they are spread. Fields the schema does not have
 * count one; validation reports them.
 */
class DocumentCost {
  readonly #fragmentCosts = new Map<string, number>();
  /** Fragments being counted, against cycles (which validation reports). */
  readonly #counting = new Set<string>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: (name: string) => FragmentDefinitionNode | undefined,
  ) {}

  of(selections: SelectionSetNode, parent: GraphQLObjectType): number {
    let cost = 0;
    for (const selection of selections.selections) {
      if (selection.kind === 'Field') {
        cost += 1;
        const field = fieldOf(this.schema, parent, selection.name.value);
        const child = field && getNamedType(field.type);
        if (selection.selectionSet && child && isObjectType(child)) {
          const items = isListType(getNullableType(field.type)) ? LIST_ITEMS : 1;
          cost += items * this.of(selection.selectionSet, child);
        }
      } else if (selection.kind === 'InlineFragment') {
        const condition = selection.typeCondition?.name.value;
        const type = condition === undefined ? parent : this.schema.getType(condition);
        if (isObjectType(type)) cost += this.of(selection.selectionSet, type);
      } else {
        cost += this.#fragment(selection.name.value);
      }
      // Stops early: a large document need not be counted to its end.
      if (cost > MAX_DOCUMENT_COST) return cost;
    }
    return cost;
  }

  #fragment(name: string): number {
    const known = this.#fragmentCosts.get(name);
    if (known !== undefined) return known;
    const fragment = this.fragments(name);
    const type = fragment && this.schema.getType(fragment.typeCondition.name.value);
    if (!fragment || !isObjectType(type) || this.#counting.has(name)) return 0;
    this.#counting.add(name);
    const cost = this.of(fragment.selectionSet, type);
    this.#counting.delete(name);
    this.#fragmentCosts.set(name, cost);
    return cost;
  }
}

/** A validation rule: refuses an operation costing more than MAX_DOCUMENT_COST. */
export function boundedDocument(context: ValidationContext): ASTVisitor {
  const schema = context.getSchema();
  const cost = new DocumentCost(schema, (name) => context.getFragment(name) ?? undefined);
  return {
    OperationDefinition(node) {
      const root = schema.getRootType(node.operation);
      if (!root || cost.of(node.selectionSet, root) <= MAX_DOCUMENT_COST) return;
      context.reportError(
        new GraphQLError(
          'The document asks for too much at once: fewer fields, aliases or nested lists.',
          { nodes: [node], extensions: { code: 'invalid_input' } },
        ),
      );
    },
  };
}
