import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * The one esbuild configuration of every Lambda bundle, as plain data. `BaseFunction` turns it
 * into CDK `bundling` options (`cdkBundling`) and the cold-start benchmark
 * (`bench/suites/lambda.ts`) into esbuild API options (`esbuildOptions`), so what is measured
 * is what ships: the two cannot drift apart.
 */
export const LAMBDA_BUNDLE = {
  /** The Lambda runtime's Node.js (Runtime.NODEJS_22_X). */
  target: 'node22',
  platform: 'node',
  format: 'esm',
  minify: true,
  sourcemap: true,
  /**
   * Source maps map stack traces to files and lines (NODE_OPTIONS=--enable-source-maps); the
   * sources' text is not needed for that and is most of a map's size.
   */
  sourcesContent: false,
  /**
   * ESM bundles cannot load CommonJS dependencies by themselves: esbuild's `__require` shim
   * looks for a global `require`, which ES modules do not have.
   */
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  /** The Node.js 22 runtime ships the AWS SDK v3: never bundled. */
  external: ['@aws-sdk/*'],
} as const;

/** The file name esbuild writes (CDK names an ESM bundle `index.mjs`). */
export const BUNDLE_FILE = 'index.mjs';

/**
 * CDK `bundling` options for a function. `nodeModules` are shipped as real files in
 * `node_modules/` beside the bundle (installed with `npm ci` from the project's lockfile, so at
 * the locked versions; offline once the npm cache holds them) instead of being inlined.
 */
export function cdkBundling(nodeModules: readonly string[] = []): BundlingOptions {
  return {
    format: LAMBDA_BUNDLE.format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS,
    target: LAMBDA_BUNDLE.target,
    banner: LAMBDA_BUNDLE.banner,
    minify: LAMBDA_BUNDLE.minify,
    sourceMap: LAMBDA_BUNDLE.sourcemap,
    sourcesContent: LAMBDA_BUNDLE.sourcesContent,
    externalModules: [...LAMBDA_BUNDLE.external],
    ...(nodeModules.length > 0
      ? {
          nodeModules: [...nodeModules],
          // Take the locked tarballs from the npm cache when it has them (CI after `npm ci`).
          environment: { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' },
        }
      : {}),
    // The local esbuild (a dev dependency), never a Docker image.
    forceDockerBundling: false,
  };
}

/** The subset of esbuild's BuildOptions this configuration sets (no dependency on esbuild's types here). */
export interface EsbuildOptions {
  entryPoints: string[];
  outfile: string;
  bundle: true;
  target: string;
  platform: 'node';
  format: 'esm';
  minify: boolean;
  sourcemap: boolean;
  sourcesContent: boolean;
  banner: { js: string };
  external: string[];
  metafile: true;
  logLevel: 'warning';
}

/** esbuild API options equal to what CDK runs for the function (`esbuild --bundle <entry> ...`). */
export function esbuildOptions(entry: string, outfile: string, nodeModules: readonly string[] = []): EsbuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    target: LAMBDA_BUNDLE.target,
    platform: LAMBDA_BUNDLE.platform,
    format: LAMBDA_BUNDLE.format,
    minify: LAMBDA_BUNDLE.minify,
    sourcemap: LAMBDA_BUNDLE.sourcemap,
    sourcesContent: LAMBDA_BUNDLE.sourcesContent,
    banner: { js: LAMBDA_BUNDLE.banner },
    // CDK marks nodeModules external too (they are installed next to the bundle).
    external: [...LAMBDA_BUNDLE.external, ...nodeModules],
    metafile: true,
    logLevel: 'warning',
  };
}
