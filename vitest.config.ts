import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['functions/**/__tests__/**/*.test.ts', 'test/**/*.test.ts', 'lib/**/__tests__/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
