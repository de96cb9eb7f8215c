export type ReferenceField = Record<string, unknown> & {
  $ref?: string;
  allOf?: { $ref: string }[];
  items?: ReferenceField;
  rules?: { rule: string; codes: string[] }[];
};
export interface ReferenceSchema {
  type?: string;
  properties?: Record<string, ReferenceField>;
  required?: string[];
  oneOf?: { $ref: string }[];
  rules?: { rule: string; codes: string[] }[];
}
export function referenceFile(repositoryRoot: string): string;
export const LEDGER_SCHEMA: string;
export const ROOTS: string[];
export function loadReference(file: string): Record<string, ReferenceSchema>;
export function referencesOf(schema: ReferenceSchema): string[];
export function reachable(schemas: Record<string, ReferenceSchema>, roots?: string[]): string[];
export function identifierOf(name: string): string;
