import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { describe, expect, it } from 'vitest';
import { LAMBDA_BUNDLE, cdkBundling, esbuildOptions } from '../constructs/bundling';
import { SANDBOX_NODE_MODULES } from '../function-wiring';

describe('one esbuild configuration for the stack and the cold-start benchmark', () => {
  it('CDK bundles minified ESM for node22 with the local esbuild, source maps without sources, @aws-sdk external', () => {
    expect(cdkBundling()).toMatchObject({
      format: OutputFormat.ESM,
      target: 'node22',
      minify: true,
      sourceMap: true,
      sourcesContent: false,
      externalModules: ['@aws-sdk/*'],
      forceDockerBundling: false,
      banner: expect.stringContaining('createRequire'),
    });
    expect(cdkBundling().nodeModules).toBeUndefined();
  });

  it('the benchmark builds with the same settings, and both mark shipped packages external', () => {
    const cdk = cdkBundling(SANDBOX_NODE_MODULES);
    const api = esbuildOptions('entry.ts', 'out/index.mjs', SANDBOX_NODE_MODULES);
    expect(api).toMatchObject({
      bundle: true,
      platform: 'node',
      format: LAMBDA_BUNDLE.format,
      target: cdk.target,
      minify: cdk.minify,
      sourcemap: cdk.sourceMap,
      sourcesContent: cdk.sourcesContent,
      banner: { js: cdk.banner },
    });
    expect(cdk.nodeModules).toEqual([...SANDBOX_NODE_MODULES]);
    // CDK adds nodeModules to the externals itself; the API options list them explicitly.
    expect(api.external).toEqual([...cdk.externalModules!, ...SANDBOX_NODE_MODULES]);
  });
});
