import type { CollectionSchema, FieldDefinition, FieldType } from '../collections/model';

/** One reason a record does not fit its collection's schema. */
export interface RecordProblem {
  field: string;
  message: string;
}

export type RecordValidator = (record: Record<string, unknown>) => RecordProblem[];

/**
 * Compiles a collection schema into a checker, once per schema: the type of every field
 * present (`null` is accepted for fields that are not required) and the presence of every
 * required one. A collection without a schema accepts any record.
 */
export function compileValidator(schema: CollectionSchema | undefined): RecordValidator {
  if (!schema) return () => [];
  const checks = Object.entries(schema.fields).map(([field, definition]) => fieldCheck(field, definition));
  return (record) => checks.flatMap((check) => check(record));
}

function fieldCheck(field: string, definition: FieldDefinition): (record: Record<string, unknown>) => RecordProblem[] {
  const required = definition.options?.required === true;
  const type = definition.jsonSchema.type;
  const itemType = (definition.jsonSchema.items as { type?: FieldType } | undefined)?.type;
  return (record) => {
    const value = record[field];
    if (value === undefined || value === null || value === '') {
      if (required) return [{ field, message: 'is required' }];
      if (value === null || value === undefined) return [];
    }
    if (!hasType(value, type)) return [{ field, message: `must be ${article(type)} ${type}, got ${describe(value)}` }];
    if (type === 'array' && itemType) {
      const bad = (value as unknown[]).findIndex((item) => !hasType(item, itemType));
      if (bad >= 0) return [{ field: `${field}[${bad}]`, message: `must be ${article(itemType)} ${itemType}, got ${describe((value as unknown[])[bad])}` }];
    }
    return [];
  };
}

export function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? 'an' : 'a');
