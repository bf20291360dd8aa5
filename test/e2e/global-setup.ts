import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import type { LocalHost } from '../../functions/local-host/start';
import type { E2eTarget } from './support/target';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eTarget: E2eTarget;
  }
}

/**
 * Picks the system under test once for every e2e file: the deployment named by API_URL (with
 * CUSTOMER_CODE, ENGINE_TOKEN, API_KEY), or, when API_URL is unset, the local host started here
 * on a free port with fresh credentials, so CI runs the same suite without an account.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const apiUrl = process.env.API_URL?.trim();
  let host: LocalHost | undefined;
  let target: E2eTarget;
  if (apiUrl) {
    const missing = ['CUSTOMER_CODE', 'ENGINE_TOKEN', 'API_KEY'].filter((name) => !process.env[name]?.trim());
    if (missing.length > 0) throw new Error(`API_URL is set, so ${missing.join(', ')} must be too (npm run create-customer prints them)`);
    target = {
      apiUrl: apiUrl.replace(/\/+$/, ''),
      customerCode: process.env.CUSTOMER_CODE!.trim(),
      engineToken: process.env.ENGINE_TOKEN!.trim(),
      apiKey: process.env.API_KEY!.trim(),
      kind: 'deployment',
    };
  } else {
    // Imported here, after quieting the SDK's notice about its future Node 22 floor (the local host runs on Node 20).
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const { startLocalHost } = await import('../../functions/local-host/start');
    const customer = { customerCode: 'e2e', engineToken: randomBytes(32).toString('base64url'), apiKey: randomBytes(32).toString('base64url') };
    host = await startLocalHost({ port: 0, customers: [customer], tableName: `e2e-${Date.now()}` });
    target = { apiUrl: host.url, ...customer, kind: 'local host' };
  }
  console.log(`e2e against ${target.kind} ${target.apiUrl} as customer ${target.customerCode}`);
  project.provide('e2eTarget', target);
  return async () => {
    await host?.stop();
  };
}
