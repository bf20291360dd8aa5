import * as z from 'zod';

/**
 * The JSON forms of the console's configuration (INTERFACE.md "Connection", "Component",
 * "Template"; field names from COMPAT.md "Engine configuration"). A value of a header, query
 * parameter or body is one of INTERFACE.md's three kinds and is kept as configured: a JSON
 * literal, `{"contextField": "name"}`, or a backtick expression.
 */
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const code = z.string().regex(CODE_PATTERN, 'must be 1-128 letters, digits, _ . : - and not start with a symbol');

const method = z
  .string()
  .transform((m) => m.toUpperCase())
  .pipe(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']));

/** Any JSON value (a specified value, a context field reference or an expression). */
const value = z.unknown();
const headers = z.array(z.object({ header: z.string().min(1), value }));
const queryParams = z.array(z.object({ parameter: z.string().min(1), value }));
const expression = z.string().min(1);

export const connectionSchema = z.object({
  connectionCode: code,
  name: z.string().default(''),
  connectorCode: z.literal('genericWebservice'),
  config: z.object({
    baseUrl: z.url({ protocol: /^https?$/ }),
    path: z.string().optional(),
    method: z.union([method, z.literal('')]).optional(),
    baseHeaders: headers.optional(),
    baseQueryParams: queryParams.optional(),
    body: value.optional(),
    /** Per-connection deadline of each call, milliseconds (beyond the interface; default 10 s). */
    timeoutMs: z.number().int().min(1).max(120_000).optional(),
    /** Retries within the deadline, honouring Retry-After (beyond the interface; default none). */
    retry: z
      .object({
        attempts: z.number().int().min(1).max(5),
        statuses: z.array(z.number().int().min(400).max(599)).optional(),
      })
      .optional(),
    /** Fail fast while the web service is down (beyond the interface; default 5 failures, 30 s; false turns it off). */
    circuitBreaker: z
      .union([
        z.literal(false),
        z.object({ failureThreshold: z.number().int().min(1).max(100).default(5), openSeconds: z.number().int().min(1).max(3600).default(30) }),
      ])
      .optional(),
  }),
});

/** COMPAT.md: the options of qs-style query-string builders. */
export const ARRAY_FORMATS = [
  'none',
  'bracket',
  'index',
  'comma',
  'separator',
  'bracket-separator',
  'colon-list-separator',
] as const;

export const queryParamsOptionsSchema = z.object({
  encode: z.boolean().optional(),
  arrayFormat: z.enum(ARRAY_FORMATS).optional(),
  arrayFormatSeparator: z.string().min(1).max(4).optional(),
  skipNull: z.boolean().optional(),
  skipEmptyString: z.boolean().optional(),
});

export const componentSchema = z.object({
  componentCode: code,
  name: z.string().default(''),
  componentType: z.literal('genericWebserviceCall'),
  triggerExpression: expression.optional(),
  validityExpression: expression.optional(),
  skipOnInvalidDependency: z.boolean().optional(),
  /** COMPAT.md: GET responses reused for this many seconds; a reused one carries `cacheInfo.cachedTS`. */
  cacheTtlSeconds: z.number().int().min(1).max(86_400).optional(),
  config: z.object({
    connectionCode: code,
    path: z.string().default(''),
    method: z.union([method, z.literal('')]).optional(),
    headers: headers.optional(),
    queryParams: queryParams.optional(),
    queryParamsOptions: queryParamsOptionsSchema.optional(),
    body: value.optional(),
  }),
  contextFieldEnrichment: z.array(z.object({ contextField: z.string().min(1), expression })).optional(),
  subComponents: z
    .array(
      z.object({
        propertyName: z.string().min(1),
        componentCodes: z.array(code).min(1),
        contextField: z.string().min(1),
        expression,
      }),
    )
    .optional(),
});

export const templateSchema = z.object({
  templateCode: code,
  name: z.string().default(''),
  componentCodes: z.array(code),
});

export const engineConfigSchema = z.object({
  connections: z.array(connectionSchema).default([]),
  components: z.array(componentSchema).default([]),
  templates: z.array(templateSchema).default([]),
});

export type Connection = z.infer<typeof connectionSchema>;
export type Component = z.infer<typeof componentSchema>;
export type Template = z.infer<typeof templateSchema>;
export type EngineConfig = z.infer<typeof engineConfigSchema>;
export type QueryParamsOptions = z.infer<typeof queryParamsOptionsSchema>;

/** The three kinds of configuration object, with the name of their code field. */
export const KINDS = {
  connection: { codeField: 'connectionCode', schema: connectionSchema, plural: 'connections' },
  component: { codeField: 'componentCode', schema: componentSchema, plural: 'components' },
  template: { codeField: 'templateCode', schema: templateSchema, plural: 'templates' },
} as const;
export type Kind = keyof typeof KINDS;
