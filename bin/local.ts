/**
 * `npm start`: the whole system on one port, no cloud account. Configuration comes from the
 * environment; the defaults are for local development only and are printed at start.
 */
import { resolve } from 'node:path';
import { startLocalHost } from '../functions/local-host/start';

// The local host supports Node 20.19+; the SDK's notice about its own future Node 22 floor is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const DEV_DEFAULTS = { CUSTOMER_CODE: 'local', ENGINE_TOKEN: 'local-engine-token', API_KEY: 'local-api-key' };

function setting(name: keyof typeof DEV_DEFAULTS): { value: string; isDefault: boolean } {
  const value = process.env[name];
  return value ? { value, isDefault: false } : { value: DEV_DEFAULTS[name], isDefault: true };
}

const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(process.env.DATA_DIR ?? './.data');
const customerCode = setting('CUSTOMER_CODE');
const engineToken = setting('ENGINE_TOKEN');
const apiKey = setting('API_KEY');

const host = await startLocalHost({
  port,
  host: process.env.HOST ?? '127.0.0.1',
  dataDir,
  customers: [{ customerCode: customerCode.value, engineToken: engineToken.value, apiKey: apiKey.value }],
});

const note = (s: { isDefault: boolean }) => (s.isDefault ? '  (development default; set it in the environment)' : '');
console.log(`Experience engine and data graph, local host
  engine        ${host.url}/experience/...
  data graph    ${host.url}/_api/v1/...
  sample data   ${host.url}/api/collections/collection-movie
  health        ${host.url}/health
  data          ${dataDir}

  X-Customer-Code: ${customerCode.value}${note(customerCode)}
  engine token:    Authorization: Bearer ${engineToken.value}${note(engineToken)}
  API key:         Authorization: Bearer ${apiKey.value}${note(apiKey)}
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    host.stop().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
