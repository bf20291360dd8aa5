/**
 * `Promise.withResolvers` (ES2024) for Node 20, which lacks it: aws-local-stepfunctions 3
 * calls it in every Task state. Import this module before running a state machine.
 */
export interface PromiseWithResolversShape<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

const P = Promise as unknown as { withResolvers?: <T>() => PromiseWithResolversShape<T> };

if (typeof P.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    enumerable: false,
    value: function withResolvers<T>(this: PromiseConstructor): PromiseWithResolversShape<T> {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      // `this` keeps subclass semantics (`MyPromise.withResolvers()`), as the standard does.
      const promise = new (this ?? Promise)<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

export {};
