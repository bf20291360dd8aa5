import { Readable } from 'node:stream';
import type { HttpClient } from '../../../ports/http-client';
import { compileExpression, compileValue, type CompiledExpression, type CompiledValue, type ExpressionScope } from '../../expression';
import type { FileService } from '../../graph/buckets/file-service';
import { fetchWithRetry, type RetryPolicy } from '../fetch-with-retry';
import type { DownloadParams } from '../model';
import { SAFE_LODASH } from '../safe-lodash';

/** What a download carries from one page to the next (small: it travels through Step Functions). */
export interface DownloadProgress {
  /** The batch just fetched; 0 before the first. */
  batchNumber: number;
  /** `{{timestamp}}` of the job's files, fixed at the first batch. */
  timestamp: string;
  result: { pagesFetched: number; filesWritten: number; records: number; stoppedAtPageLimit?: true };
}

export interface DownloadContext {
  customerCode: string;
  targetBucketCode: string;
  http: HttpClient;
  files: FileService;
  now: () => number;
  retry?: RetryPolicy;
}

/**
 * One batch of INTERFACE.md's download: the initial request for batch 1, `nextPageRequest`
 * after it; `responsePrep` selects the items (variable `response`), which become one JSON
 * Lines file named from `targetFilename`; then `hasMore` (with `responseBody`,
 * `responseHeaders`, `responseStatus`, `batchNumber` and `_`) decides whether another
 * batch follows. In `nextPageRequest`'s expressions `batchNumber` is the batch just fetched.
 */
export async function downloadPage(
  ctx: DownloadContext,
  params: DownloadParams,
  previous: Partial<DownloadProgress> | undefined,
): Promise<{ hasMore: boolean; progress: DownloadProgress }> {
  const batchNumber = (previous?.batchNumber ?? 0) + 1;
  const progress: DownloadProgress = {
    batchNumber,
    timestamp: previous?.timestamp ?? compactTimestamp(ctx.now()),
    result: { pagesFetched: 0, filesWritten: 0, records: 0, ...previous?.result },
  };
  const spec = batchNumber > 1 && params.nextPageRequest ? params.nextPageRequest : params.initialRequest;
  const requestScope: ExpressionScope = { variables: { batchNumber: batchNumber - 1 }, functions: { _: SAFE_LODASH } };
  const compiled = compiledOf(params);
  const request = (batchNumber > 1 && params.nextPageRequest ? compiled.nextPageRequest! : compiled.initialRequest).evaluate(requestScope) as typeof spec;
  const url = withQuery(String(request.url), request.queryParameters ?? {});
  const headers: Record<string, string> = { accept: params.isJson ? 'application/json' : '*/*' };
  for (const [name, value] of Object.entries(request.headers ?? {})) if (value != null) headers[name.toLowerCase()] = String(value);

  const answer = await fetchWithRetry(ctx.http, { url, method: String(request.method ?? 'GET').toUpperCase(), headers }, ctx.retry);
  progress.result.pagesFetched++;
  const responseBody = params.isJson ? parseJson(answer.body, url) : answer.body;

  const selected = compiled.responsePrep ? compiled.responsePrep.evaluate({ variables: { response: responseBody }, functions: { _: SAFE_LODASH } }) : responseBody;
  const items = Array.isArray(selected) ? selected : selected == null ? [] : [selected];
  if (items.length > 0) {
    const filename = targetFilename(params.targetFilename, progress.timestamp, batchNumber);
    const lines = items.map((item) => JSON.stringify(item)).join('\n') + '\n';
    await ctx.files.putFile(ctx.customerCode, ctx.targetBucketCode, { filename, body: Readable.from([Buffer.from(lines)]) });
    progress.result.filesWritten++;
    progress.result.records += items.length;
  }

  let hasMore = false;
  if (params.isPaged && params.hasMore) {
    hasMore = Boolean(
      compiled.hasMore!.evaluate({
        variables: { responseBody, responseHeaders: answer.headers, responseStatus: answer.status, batchNumber },
        functions: { _: SAFE_LODASH },
      }),
    );
    if (hasMore && batchNumber >= params.maxPages) {
      hasMore = false;
      progress.result.stoppedAtPageLimit = true;
    }
  }
  return { hasMore, progress };
}

interface CompiledDownload {
  initialRequest: CompiledValue;
  nextPageRequest?: CompiledValue;
  responsePrep?: CompiledExpression;
  hasMore?: CompiledExpression;
}

/** The expressions of a download, compiled once for all the pages a task fetches with the same params. */
const compiledDownloads = new WeakMap<DownloadParams, CompiledDownload>();

function compiledOf(params: DownloadParams): CompiledDownload {
  let compiled = compiledDownloads.get(params);
  if (!compiled) {
    compiled = {
      initialRequest: compileValue(params.initialRequest),
      nextPageRequest: params.nextPageRequest ? compileValue(params.nextPageRequest) : undefined,
      responsePrep: params.responsePrep ? compileExpression(params.responsePrep) : undefined,
      hasMore: params.hasMore ? compileExpression(params.hasMore) : undefined,
    };
    compiledDownloads.set(params, compiled);
  }
  return compiled;
}

/** `{{timestamp}}`, `{{batchNumber}}` (from 1) and `{{batchId}}` (zero-padded to 5), COMPAT.md. */
export function targetFilename(pattern: string, timestamp: string, batchNumber: number): string {
  return pattern
    .replaceAll('{{timestamp}}', timestamp)
    .replaceAll('{{batchNumber}}', String(batchNumber))
    .replaceAll('{{batchId}}', String(batchNumber).padStart(5, '0'));
}

/** `20261122T001530123Z`: sortable and safe in a filename. */
function compactTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:.]/g, '');
}

function withQuery(url: string, query: Record<string, unknown>): string {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(query)) {
    if (value == null) continue;
    for (const v of Array.isArray(value) ? value : [value]) parsed.searchParams.append(name, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return parsed.toString();
}

function parseJson(text: string, url: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`The answer of ${url} is not JSON (isJson is true)`);
  }
}
