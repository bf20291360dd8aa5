import { fault } from './errors';
import { DEFAULT_LIMITS, type ExpressionLimits } from './limits';

/** A host function callable from expressions. */
export type HostFunction = (...args: unknown[]) => unknown;

/** What an expression can see when it is evaluated. */
export interface ExpressionScope {
  /** Named variables, e.g. response, event, batchNumber, responseBody. */
  variables?: Record<string, unknown>;
  /**
   * Host functions callable by name, e.g. contextField(name), componentResponse(code). A value
   * may also be a namespace object whose own function properties are callable, e.g. `_` with
   * get/set, so `_.get(x, 'a.b')` works.
   */
  functions?: Record<string, HostFunction | Record<string, HostFunction>>;
  /** Overrides of the evaluation limits for this call (defaults: DEFAULT_LIMITS). */
  limits?: Partial<ExpressionLimits>;
}

/** The state of one evaluate call: the scope and the step budget. */
export class EvalContext {
  steps: number;
  readonly maxSteps: number;
  readonly maxStringLength: number;
  readonly variables: Record<string, unknown> | undefined;
  readonly functions: Record<string, unknown> | undefined;

  constructor(scope: ExpressionScope | undefined, initialSteps: number) {
    const limits = scope?.limits;
    this.maxSteps = limits?.maxSteps ?? DEFAULT_LIMITS.maxSteps;
    this.maxStringLength = limits?.maxStringLength ?? DEFAULT_LIMITS.maxStringLength;
    this.variables = scope?.variables ?? undefined;
    this.functions = scope?.functions ?? undefined;
    this.steps = 0;
    this.charge(initialSteps);
  }

  /** Spends `n` steps; faults when the budget is gone. */
  charge(n: number): void {
    this.steps += n;
    if (this.steps > this.maxSteps) fault(`Evaluation exceeded the budget of ${this.maxSteps} steps`);
  }

  /** Checks the size of a string the expression built, and charges for building it. */
  built(s: string): string {
    if (s.length > this.maxStringLength) tooLong(s.length, this.maxStringLength);
    if (s.length > 64) this.charge(s.length >>> 6);
    return s;
  }

  /** Checks a length before building a string that long. */
  checkLength(length: number): void {
    if (length > this.maxStringLength) tooLong(length, this.maxStringLength);
  }
}

function tooLong(length: number, max: number): never {
  fault(`A string of length ${length} exceeds the limit of ${max} characters`);
}
