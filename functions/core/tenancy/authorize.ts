import type { Store } from '../../ports/store';
import { findCredential, type Credential, type CredentialScope } from './credentials';

/** Why a request was refused: 401 for missing or unknown credentials, 403 for another customer's. */
export type AuthDecision =
  | { allowed: true; customerCode: string; scope: CredentialScope }
  | { allowed: false; status: 401 | 403; message: string };

export interface AuthRequest {
  /** The `Authorization` header as sent. */
  authorization?: string;
  /** The `X-Customer-Code` header as sent. */
  customerCode?: string;
}

/**
 * INTERFACE.md "Authentication" rule 1: `Authorization: Bearer <token>` plus `X-Customer-Code`.
 * The engine token opens engine routes only and the API key data graph routes only.
 */
export class Authorizer {
  private readonly cache = new Map<string, { credential: Credential | undefined; until: number }>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    /** Positive and negative look-ups are remembered this long, like API Gateway's authorizer cache. */
    private readonly cacheMs = 30_000,
  ) {}

  async authorize(request: AuthRequest, scope: CredentialScope): Promise<AuthDecision> {
    const token = bearerToken(request.authorization);
    if (!token) return { allowed: false, status: 401, message: 'Missing Authorization: Bearer <token> header' };
    const customerCode = request.customerCode?.trim();
    if (!customerCode) return { allowed: false, status: 401, message: 'Missing X-Customer-Code header' };
    const credential = await this.lookup(token);
    if (!credential || credential.scope !== scope) {
      const what = scope === 'engine' ? 'engine token' : 'API key';
      return { allowed: false, status: 401, message: `Invalid ${what}` };
    }
    if (credential.customerCode !== customerCode) {
      return { allowed: false, status: 403, message: 'These credentials do not belong to this customer' };
    }
    return { allowed: true, customerCode, scope };
  }

  private async lookup(token: string): Promise<Credential | undefined> {
    const hit = this.cache.get(token);
    const now = this.now();
    if (hit && hit.until > now) return hit.credential;
    const credential = await findCredential(this.store, token);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(token, { credential, until: now + this.cacheMs });
    return credential;
  }
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
