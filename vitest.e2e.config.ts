import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: the end-to-end suite over HTTP(S). With API_URL, CUSTOMER_CODE,
 * ENGINE_TOKEN and API_KEY set it runs against that deployment (AWS or LocalStack); without
 * API_URL it starts the local host itself (test/e2e/global-setup.ts).
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    // Against AWS, jobs go through Step Functions and events through streams and EventBridge.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
