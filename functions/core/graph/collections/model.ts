import * as z from 'zod';

/**
 * INTERFACE.md "Collection", "Collection schema" and "Collection navigation configuration".
 */
export const COLLECTION_CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const collectionCode = z.string().regex(COLLECTION_CODE, 'must be 1-64 letters, digits, _ or -, starting with a letter or digit');

export const collectionSchema = z.object({
  collectionCode,
  name: z.string().max(256).default(''),
  description: z.string().max(4096).default(''),
  dataRecordIdentifierProperty: z.string().min(1).max(256),
});

export type Collection = z.infer<typeof collectionSchema> & { createdAt: string };

export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

const jsonSchema: z.ZodType<{ type: FieldType; title?: string; items?: unknown }> = z.object({
  type: z.enum(FIELD_TYPES),
  title: z.string().optional(),
  items: z.object({ type: z.enum(FIELD_TYPES) }).passthrough().optional(),
}).passthrough();

export const fieldDefinitionSchema = z.object({
  jsonSchema,
  displaySchema: z.record(z.string(), z.unknown()).optional(),
  options: z
    .object({
      readonly: z.boolean().optional(),
      required: z.boolean().optional(),
      /** Beyond the interface: keep an equality index on this field, so `$eq`/`$in` filters on it read no more than the matches. */
      indexed: z.boolean().optional(),
    })
    .passthrough()
    .optional(),
  shadow: z.boolean().optional(),
  computed: z.boolean().optional(),
}).passthrough();

export const FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]{0,127}$/;
const RESERVED = new Set(['dataRecordIdentifier', '@iat', '@uat']);

export const schemaBody = z.object({
  fields: z.record(
    z.string().regex(FIELD_NAME, 'field names are letters, digits, _, $ or -').refine((name) => !RESERVED.has(name), 'is reserved'),
    fieldDefinitionSchema,
  ),
});

export type FieldDefinition = z.infer<typeof fieldDefinitionSchema>;
export type CollectionSchema = { fields: Record<string, FieldDefinition>; updatedAt?: string };

export const navigationBody = z.object({
  navigationConfiguration: z.array(
    z.object({
      title: z.string(),
      ordinal: z.number().int(),
      active: z.boolean(),
      actions: z.array(
        z.object({
          label: z.string(),
          dataRepositoryCode: z.string(),
          dataCollectionCode: z.string(),
        }),
      ),
    }),
  ),
});

export type NavigationConfiguration = z.infer<typeof navigationBody>['navigationConfiguration'];
