/**
 * `npm run create-customer -- --customer acme [--table T] [--outputs cdk-outputs.json]`
 * `npm run create-customer -- --revoke <token> [--table T]` removes one credential (an engine
 * token or an API key); the authorizer caches forget it within 5 minutes.
 *
 * Creates a customer of a deployment: mints its engine token and data graph API key (32
 * random bytes each, base64url), stores their SHA-256 hashes in the table with the same
 * `saveCustomer` the local host uses, and prints the tokens once. They cannot be read back
 * later: the table holds only hashes. The table name comes from `--table`, else from the
 * `TableName` output in the outputs file that `npm run deploy` writes.
 *
 * Credentials and region are the AWS SDK's usual ones (AWS_PROFILE, AWS_REGION, ...);
 * `AWS_ENDPOINT_URL_DYNAMODB` points it at LocalStack or another twin.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DynamoDbStore } from '../functions/adapters/aws/dynamodb-store';
import { revokeCredential, saveCustomer, type CustomerCredentials } from '../functions/core/tenancy/credentials';
import type { Store } from '../functions/ports/store';

/** Bytes of randomness of each token (256 bits). */
export const TOKEN_BYTES = 32;

/** A customer code as it travels in X-Customer-Code and in keys: letters, digits, `-`, `_`, `.`. */
const CUSTOMER_CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function mintToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** Mints the customer's two tokens and stores their hashes; answers the tokens (to show once). */
export async function createCustomer(store: Store, customerCode: string): Promise<CustomerCredentials> {
  if (!CUSTOMER_CODE.test(customerCode)) throw new Error(`--customer must be 1-64 letters, digits, '-', '_' or '.', starting with a letter or digit; got '${customerCode}'`);
  const customer: CustomerCredentials = { customerCode, engineToken: mintToken(), apiKey: mintToken() };
  await saveCustomer(store, customer);
  return customer;
}

/** The `TableName` output of any stack in a `cdk deploy --outputs-file` file. */
export function tableNameFromOutputs(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const outputs = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, string>>;
  return Object.values(outputs).find((stack) => typeof stack.TableName === 'string')?.TableName;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      customer: { type: 'string' },
      table: { type: 'string' },
      outputs: { type: 'string', default: 'cdk-outputs.json' },
      json: { type: 'boolean', default: false },
      revoke: { type: 'string' },
    },
  });
  if (values.revoke) {
    const table = values.table ?? tableNameFromOutputs(resolve(values.outputs!));
    if (!table) throw new Error(`No table: pass --table, or deploy first (npm run deploy writes ${values.outputs} with the TableName output)`);
    const revoked = await revokeCredential(new DynamoDbStore({ tableName: table }), values.revoke);
    console.log(revoked ? 'Revoked. Authorizer caches forget it within 5 minutes.' : 'No such credential.');
    return;
  }
  if (!values.customer) throw new Error('Usage: npm run create-customer -- --customer <code> [--table <table name>] [--outputs cdk-outputs.json] [--json]');
  const tableName = values.table ?? tableNameFromOutputs(resolve(values.outputs!));
  if (!tableName) throw new Error(`No table: pass --table, or deploy first (npm run deploy writes ${values.outputs} with the TableName output)`);

  const customer = await createCustomer(new DynamoDbStore({ tableName }), values.customer);
  if (values.json) {
    console.log(JSON.stringify({ ...customer, tableName }));
    return;
  }
  console.log(`Customer ${customer.customerCode} created in table ${tableName}.`);
  console.log('These tokens are shown once; only their SHA-256 hashes are stored.\n');
  console.log(`CUSTOMER_CODE=${customer.customerCode}`);
  console.log(`ENGINE_TOKEN=${customer.engineToken}`);
  console.log(`API_KEY=${customer.apiKey}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  main().catch((err: unknown) => {
    console.error((err as Error).message);
    process.exit(1);
  });
}
