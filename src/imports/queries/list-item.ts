/**
 * The JSON of a list item, declared once: its fields in order, the column each is read from and
 * how its value is written. Three writers follow from it and write the same bytes for the same
 * row: SQLite's and PostgreSQL's SQL (the paged lists, written by the database) and itemJson
 * (the streamed whole lists, written here).
 */
import { sql, type RawBuilder } from 'kysely';
import type { PerDialect } from '../../db/storage.js';
import { formatDatetime } from './datetime.js';

/** How a field's value is written: a string, a string or null, or a datetime or null. */
type ItemFormat = 'text' | 'nullableText' | 'datetime';

/** The list item's fields, in the order they are written. */
export const ITEM_FIELDS = [
  { name: 'external_account_number', column: 'external_account_number', format: 'text' },
  { name: 'service_account_number', column: 'service_account_number', format: 'nullableText' },
  { name: 'account_created_at', column: 'account_created_at', format: 'datetime' },
] as const satisfies readonly { name: string; column: string; format: ItemFormat }[];

/** The columns the item is read from, in ITEM_FIELDS order. */
export const ITEM_COLUMNS = ITEM_FIELDS.map((field) => field.column) as unknown as ColumnsOf<
  typeof ITEM_FIELDS
>;

type ColumnsOf<Fields extends readonly unknown[]> = {
  readonly [I in keyof Fields]: Fields[I] extends { column: infer Column } ? Column : never;
};

/** An item's values, as read from its columns (ITEM_COLUMNS order). */
export type ItemValues = readonly [
  externalAccountNumber: string,
  serviceAccountNumber: string | null,
  accountCreatedAt: number | null,
];

/** The text before each field's value: `{` or `,`, then its quoted name and a colon. */
const LABELS = ITEM_FIELDS.map((field, i) => `${i === 0 ? '{' : ','}"${field.name}":`);

/**
 * Every item starts with this text (the first field's label). Inside a JSON string every `"`
 * follows a backslash, so it is found only where an item starts.
 */
export const ITEM_START = LABELS[0] as string;

/**
 * Each format's value as SQL over its column. SQLite: `json_quote` writes null for a null;
 * `datetime` with a space replaced costs SQLite about half what `strftime` does, and a creation
 * time is positive, so `/ 1000` truncating is flooring, as formatDatetime does. PostgreSQL:
 * `to_json` escapes a string as JSON.stringify does (a PostgreSQL text holds neither U+0000 nor a
 * lone surrogate), and `to_char` writes the time in UTC, whatever the session's time zone; the
 * pending page's creation time is a bare null, which PostgreSQL would take for text without the
 * cast.
 */
const SQL_VALUES: PerDialect<Record<ItemFormat, (column: string) => string>> = {
  sqlite: {
    text: (column) => `json_quote(${column})`,
    nullableText: (column) => `json_quote(${column})`,
    datetime: (column) =>
      `coalesce('"' || replace(datetime(${column} / 1000, 'unixepoch'), ' ', 'T') || 'Z"', 'null')`,
  },
  postgres: {
    text: (column) => `to_json(${column})::text`,
    nullableText: (column) => `coalesce(to_json(${column})::text, 'null')`,
    datetime: (column) =>
      `coalesce('"' || to_char(to_timestamp(${column}::bigint / 1000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || 'Z"', 'null')`,
  },
};

/** The item as one SQL expression of the dialect, over the columns of ITEM_FIELDS. */
function itemSql(values: Record<ItemFormat, (column: string) => string>): RawBuilder<string> {
  const parts = ITEM_FIELDS.map(
    (field, i) => `'${LABELS[i] as string}' || ${values[field.format](field.column)}`,
  );
  // Only fixed names and literals of this module: nothing of a request reaches this text.
  return sql.raw<string>(`\n  ${[...parts, `'}'`].join('\n  || ')}`);
}

/** A page's item as each database writes it: JSON text, byte for byte as itemJson writes it. */
export const ITEM_SQL: PerDialect<RawBuilder<string>> = {
  sqlite: itemSql(SQL_VALUES.sqlite),
  postgres: itemSql(SQL_VALUES.postgres),
};

const JSON_VALUES: Record<ItemFormat, (value: never) => string> = {
  text: (value: string) => JSON.stringify(value),
  nullableText: (value: string | null) => (value === null ? 'null' : JSON.stringify(value)),
  datetime: (value: number | null) => (value === null ? 'null' : `"${formatDatetime(value)}"`),
};

const WRITERS = ITEM_FIELDS.map((field) => JSON_VALUES[field.format]) as ((
  value: unknown,
) => string)[];

/** The item's JSON, as the databases write it (ITEM_SQL); values after the item's are ignored. */
export function itemJson(values: readonly [...ItemValues, ...unknown[]]): string {
  let json = '';
  for (let i = 0; i < WRITERS.length; i++) {
    json += (LABELS[i] as string) + (WRITERS[i] as (value: unknown) => string)(values[i]);
  }
  return `${json}}`;
}
