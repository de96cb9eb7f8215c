/** JSON Schemas of the event routes: they feed the OpenAPI document and serialisation. */
import { errors, TOKEN_SECURITY } from '../http/error-schemas.js';
import { EVENT_NAMES } from './event-names.js';
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT } from './events.service.js';

const security = TOKEN_SECURITY;

const timelineEvent = {
  event: { type: 'string', enum: [...EVENT_NAMES] },
  occurred_at: { type: 'string', format: 'date-time' },
  data: {
    description: "The event's details (docs/interface.md, Account events); never a payload",
    type: ['object', 'null'],
    additionalProperties: true,
  },
  request_id: {
    description: 'The X-Request-Id of the request that caused it; null for the CLI and workers',
    type: ['string', 'null'],
  },
} as const;

const TIMELINE_FIELDS = ['event', 'occurred_at', 'data', 'request_id'];

export const timelineSchema = {
  operationId: 'getAccountEvents',
  tags: ['events'],
  summary: 'Every event of one account, oldest first',
  security,
  params: {
    type: 'object',
    properties: {
      import_supplier_code: { type: 'string' },
      external_account_number: { type: 'string' },
    },
    required: ['import_supplier_code', 'external_account_number'],
  },
  response: {
    200: {
      description: 'The account has events (a refused stage of an account never staged has some)',
      type: 'array',
      items: { type: 'object', properties: timelineEvent, required: TIMELINE_FIELDS },
    },
    ...errors({
      400: ['malformed_request'],
      404: ['import_supplier_not_found', 'account_events_not_found'],
    }),
  },
};

export const feedSchema = {
  operationId: 'getSupplierEventFeed',
  tags: ['events'],
  summary: "A supplier's events, each committed one once, paged by cursor",
  security,
  params: {
    type: 'object',
    properties: { import_supplier_code: { type: 'string' } },
    required: ['import_supplier_code'],
  },
  querystring: {
    type: 'object',
    properties: {
      after: {
        type: 'string',
        description: 'A `next` of an earlier answer; from the first event kept when absent',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: FEED_MAX_LIMIT,
        default: FEED_DEFAULT_LIMIT,
        description: `Events per page (default ${FEED_DEFAULT_LIMIT}, at most ${FEED_MAX_LIMIT})`,
      },
    },
  },
  response: {
    200: {
      description:
        'Events committed after the cursor, oldest commit first. Follow `next`: each committed event is served once.',
      type: 'object',
      properties: {
        events: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              external_account_number: { type: 'string' },
              ...timelineEvent,
            },
            required: ['id', 'external_account_number', ...TIMELINE_FIELDS],
          },
        },
        next: {
          description:
            'The cursor to read on from (the `after` given when no event was served; null when neither)',
          type: ['string', 'null'],
        },
      },
      required: ['events', 'next'],
    },
    ...errors({ 400: ['malformed_request'], 404: ['import_supplier_not_found'] }),
  },
};
