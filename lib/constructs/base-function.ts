import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * The environment variable that carries the table name. Set only by `BaseFunction.useTable`,
 * together with the grant, and read once by the AWS adapters (`functions/adapters/aws`).
 */
export const TABLE_NAME_ENV = 'TABLE_NAME';

/** How much of a table a function may touch: data only, never table management. */
export type TableAccess = 'read' | 'readWrite';

/** What varies between functions; everything else is fixed by `BaseFunction`. */
export interface BaseFunctionProps {
  /** Path of the TypeScript entry file (it exports `handler`). */
  readonly entry: string;
  /** The exported handler function. @default 'handler' */
  readonly handler?: string;
  readonly description?: string;
  /** API Gateway HTTP APIs give up after 30 s, so API handlers stop just before. @default 29 s */
  readonly timeout?: Duration;
  /** @default 512 */
  readonly memorySize?: number;
  /** Extra variables, merged over the fixed ones. Table names come from `useTable`, not here. */
  readonly environment?: Record<string, string>;
}

/**
 * Makes ESM bundles able to load CommonJS dependencies: esbuild's `__require` shim looks for a
 * global `require`, which ES modules do not have.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/**
 * The one Lambda function shape of the project: Node.js 22 on arm64, an ESM bundle built with
 * the local esbuild (never Docker), X-Ray tracing, JSON logs into an explicit log group kept
 * one month, source maps enabled.
 */
export class BaseFunction extends NodejsFunction {
  /** The log group the function writes to (created with the function, one-month retention). */
  readonly functionLogGroup: LogGroup;

  constructor(scope: Construct, id: string, props: BaseFunctionProps) {
    // The log group must exist before the function (it is a constructor prop), and `this`
    // cannot be used before `super`, so it is a sibling named after the function.
    const logGroup = new LogGroup(scope, `${id}LogGroup`, {
      retention: RetentionDays.ONE_MONTH,
      // Stateless stack: deleting the function deletes its logs; they expire in a month anyway.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    super(scope, id, {
      entry: props.entry,
      handler: props.handler ?? 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(29),
      tracing: Tracing.ACTIVE,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        banner: ESM_REQUIRE_BANNER,
        minify: true,
        sourceMap: true,
        // The Node.js 22 runtime ships the AWS SDK v3.
        externalModules: ['@aws-sdk/*'],
        forceDockerBundling: false,
      },
    });

    this.functionLogGroup = logGroup;
  }

  /**
   * Gives the function the table: grants data access (read, or read and write) and sets
   * `TABLE_NAME` in the same call, so permission and configuration cannot drift apart.
   * This is the only way a function should learn a table name.
   */
  useTable(table: ITable, access: TableAccess = 'readWrite'): this {
    if (access === 'read') {
      table.grantReadData(this);
    } else {
      table.grantReadWriteData(this);
    }
    this.addEnvironment(TABLE_NAME_ENV, table.tableName);
    return this;
  }
}
