/**
 * INTERFACE.md "Component result": `response` only for VALID and INVALID, `error` only for
 * FAILED, neither for SKIPPED. Absent keys are absent from the JSON, never null.
 */
export type ComponentResult =
  | { status: 'VALID' | 'INVALID'; response: unknown; cacheInfo?: { cachedTS: number } }
  | { status: 'FAILED'; error: string }
  | { status: 'SKIPPED' };

export type ComponentStatus = ComponentResult['status'];

export interface QueryResult {
  /** Milliseconds from the query's start to its last component's end. */
  duration: number;
  components: Record<string, ComponentResult>;
}

export const failed = (error: string): ComponentResult => ({ status: 'FAILED', error });
export const skipped = (): ComponentResult => ({ status: 'SKIPPED' });
