import { startLocalHost, type LocalHost, type LocalHostOptions } from '../../functions/local-host/start';

/** Two customers, so every test can check tenant isolation. */
export const CUSTOMER_A = { customerCode: 'acme', engineToken: 'acme-engine-token', apiKey: 'acme-api-key' };
export const CUSTOMER_B = { customerCode: 'globex', engineToken: 'globex-engine-token', apiKey: 'globex-api-key' };

export interface TestHost extends LocalHost {
  /** A JSON call with customer A's engine token unless other headers are given. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; text: string; headers: Headers }>;
}

/** Starts the real local host on a free port, with DynamoDB in memory. */
export async function startTestHost(options: { dataDir?: string; jobTuning?: LocalHostOptions['jobTuning'] } = {}): Promise<TestHost> {
  const host = await startLocalHost({ port: 0, dataDir: options.dataDir, jobTuning: options.jobTuning, customers: [CUSTOMER_A, CUSTOMER_B], tableName: options.dataDir ? 'experience-graph' : `t${Date.now()}` });
  return {
    ...host,
    async call(method, path, body, headers) {
      const res = await fetch(host.url + path, {
        method,
        headers: headers ?? engineHeaders(CUSTOMER_A),
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, body: parsed, text, headers: res.headers };
    },
  };
}

export function engineHeaders(customer: { customerCode: string; engineToken: string }): Record<string, string> {
  return { 'content-type': 'application/json', authorization: `Bearer ${customer.engineToken}`, 'x-customer-code': customer.customerCode };
}

export function graphHeaders(customer: { customerCode: string; apiKey: string }): Record<string, string> {
  return { 'content-type': 'application/json', authorization: `Bearer ${customer.apiKey}`, 'x-customer-code': customer.customerCode };
}

/** Job timings for tests: retries without waiting, small import chunks (several per file). */
export const FAST_JOBS: LocalHostOptions['jobTuning'] = {
  retry: { attempts: 3, baseDelayMs: 0, maxDelayMs: 0, sleep: async () => {} },
  chunkRecords: 1_000,
};

/** Polls a job until it ends (the local Step Functions run it in the background). */
export async function waitForJob(host: TestHost, jobId: string, headers: Record<string, string>): Promise<any> {
  await host.jobRunner.idle();
  const res = await host.call('GET', `/_api/v1/jobs/${jobId}`, undefined, headers);
  return res.body;
}
