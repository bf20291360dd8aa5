/**
 * An AWS SDK package loaded on first use. esbuild hoists every static import of an external
 * package to the top of a Lambda bundle, so a function would load every SDK package any of its
 * adapters mentions at cold start; a dynamic import() of the package itself defers it to the
 * first call that needs it (and a function that never calls S3 never loads it).
 */
export function lazySdk<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
