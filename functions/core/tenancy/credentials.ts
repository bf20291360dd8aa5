import { createHash } from 'node:crypto';
import type { AuthScope } from '../../routes';
import type { Store } from '../../ports/store';

/**
 * Credentials are stored only as SHA-256 hashes: the store never holds a usable token.
 * One item per credential, keyed by its hash, so a request is authorised with a single
 * GetItem whatever the number of customers.
 */
export type CredentialScope = Exclude<AuthScope, 'public'>;

export interface Credential {
  customerCode: string;
  scope: CredentialScope;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const credentialKey = (token: string) => ({ pk: `CREDENTIAL#${hashToken(token)}`, sk: 'CREDENTIAL' });

/** Registers a token for a customer and scope (idempotent). */
export async function saveCredential(store: Store, token: string, credential: Credential): Promise<void> {
  await store.put({ ...credentialKey(token), ...credential });
}

/** The credential a token stands for, if any. */
export async function findCredential(store: Store, token: string): Promise<Credential | undefined> {
  const item = await store.get(credentialKey(token));
  if (!item) return undefined;
  return { customerCode: String(item.customerCode), scope: item.scope as CredentialScope };
}

/** A customer with its engine token and data graph API key (bootstrap and the CLI). */
export interface CustomerCredentials {
  customerCode: string;
  engineToken: string;
  apiKey: string;
}

export async function saveCustomer(store: Store, customer: CustomerCredentials): Promise<void> {
  await saveCredential(store, customer.engineToken, { customerCode: customer.customerCode, scope: 'engine' });
  await saveCredential(store, customer.apiKey, { customerCode: customer.customerCode, scope: 'graph' });
}

/** Removes a token's credential; false when it was unknown. Caches (the authorizer's, API Gateway's) forget it within their TTL. */
export async function revokeCredential(store: Store, token: string): Promise<boolean> {
  return (await store.delete(credentialKey(token))) !== undefined;
}
