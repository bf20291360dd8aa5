import * as z from 'zod';
import { bucketServices } from '../core/graph/buckets/services';
import { parseUploadedFiles } from '../core/graph/buckets/multipart';
import type { FileContent } from '../core/graph/buckets/file-service';
import type { Deps } from '../deps';
import type { ApiEvent, ApiHandler, ApiResult } from '../http/api-event';
import { NotFoundError, PayloadTooLargeError } from '../http/errors';
import { customerOf, json, MAX_BODY_BYTES, parseBody, parseWith, pathParam, withErrors } from '../http/respond';
import { GRAPH_PREFIX } from '../routes';
import { lambdaHandler } from './lambda-entry';

/**
 * The largest file a download can answer. A Lambda response carries at most 6 MB, and binary
 * bytes travel base64-encoded (4 characters per 3 bytes), so about 4.5 MB of file fit, less a
 * margin for the status and headers. Larger files need another way out (presigned S3 URLs).
 */
export const MAX_DOWNLOAD_BYTES = Math.floor(((MAX_BODY_BYTES - 16 * 1024) * 3) / 4);

/** COMPAT.md "Buckets": `PUT /buckets/{code}` with `{dataBucketEntry: {name}}`. */
const bucketEntry = z.object({ dataBucketEntry: z.object({ name: z.string().trim().min(1).max(256) }) });

const filesQuery = z.object({
  pattern: z.string().optional(),
  limit: z
    .string()
    .regex(/^\d{1,7}$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .optional(),
  /** COMPAT.md: the product's download names the file in a `filename` query parameter. */
  filename: z.string().optional(),
});

const CONTENT_TYPES: [RegExp, string][] = [
  [/\.json$/i, 'application/json'],
  [/\.(jsonl|ndjson)$/i, 'application/x-ndjson'],
  [/\.csv$/i, 'text/csv'],
];

const route = (method: string, path: string) => `${method} ${GRAPH_PREFIX}${path}`;

/**
 * Buckets and their files (INTERFACE.md "Bucket", COMPAT.md "Buckets"): create-or-rename,
 * list, read and delete buckets; list, write, upload, download and delete files.
 */
export function create(deps: Deps): ApiHandler {
  const { buckets, files } = bucketServices(deps);
  return withErrors(async (event) => {
    const customerCode = customerOf(event);
    switch (event.routeKey) {
      case route('GET', '/buckets'):
        return json(200, { buckets: await buckets.listBuckets(customerCode) });
      case route('PUT', '/buckets/{bucketCode}'): {
        const { bucket, created } = await buckets.createBucket(customerCode, bucketCodeOf(event), parseBody(event, bucketEntry));
        return json(created ? 201 : 200, bucket);
      }
      case route('GET', '/buckets/{bucketCode}'):
        return json(200, await buckets.getBucket(customerCode, bucketCodeOf(event)));
      case route('DELETE', '/buckets/{bucketCode}'):
        await buckets.deleteBucket(customerCode, bucketCodeOf(event));
        return json(204);
      case route('GET', '/buckets/{bucketCode}/files'): {
        const query = parseWith(filesQuery, event.queryStringParameters ?? {}, 'query');
        if (query.filename !== undefined) {
          return download(await files.readFile(customerCode, bucketCodeOf(event), query.filename, MAX_DOWNLOAD_BYTES));
        }
        return json(200, { files: await files.listFiles(customerCode, bucketCodeOf(event), query) });
      }
      case route('DELETE', '/buckets/{bucketCode}/files'): {
        const query = parseWith(filesQuery, event.queryStringParameters ?? {}, 'query');
        return json(200, { deleted: await files.deleteFiles(customerCode, bucketCodeOf(event), query.pattern) });
      }
      case route('PUT', '/buckets/{bucketCode}/files/{filename}'): {
        const file = { filename: pathParam(event, 'filename'), body: bodyBytes(event) };
        return json(201, await files.putFile(customerCode, bucketCodeOf(event), file));
      }
      case route('GET', '/buckets/{bucketCode}/files/{filename}'):
        return download(await files.readFile(customerCode, bucketCodeOf(event), pathParam(event, 'filename'), MAX_DOWNLOAD_BYTES));
      case route('DELETE', '/buckets/{bucketCode}/files/{filename}'):
        await files.deleteFile(customerCode, bucketCodeOf(event), pathParam(event, 'filename'));
        return json(204);
      case route('POST', '/buckets/{bucketCode}/upload'): {
        const bucketCode = bucketCodeOf(event);
        const uploaded = await parseUploadedFiles(bodyBytes(event), event.headers?.['content-type']);
        const written = await files.uploadFiles(
          customerCode,
          bucketCode,
          uploaded.map((file) => ({ filename: file.filename, body: file.bytes })),
        );
        return json(201, { files: written });
      }
      default:
        throw new NotFoundError(`No route ${event.routeKey}`);
    }
  });
}

function bucketCodeOf(event: ApiEvent): string {
  return pathParam(event, 'bucketCode');
}

/** The raw body's bytes (API Gateway base64-encodes binary bodies). */
function bodyBytes(event: ApiEvent): Buffer {
  if (!event.body) return Buffer.alloc(0);
  const bytes = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  if (bytes.length > MAX_BODY_BYTES) throw new PayloadTooLargeError('The request body exceeds 6 MB');
  return bytes;
}

/** A file's bytes as a binary answer (base64 in the Lambda result, raw bytes on the wire). */
function download(file: FileContent): ApiResult {
  return {
    statusCode: 200,
    headers: {
      'content-type': contentTypeOf(file.filename),
      'content-disposition': contentDisposition(file.filename),
      'last-modified': new Date(file.lastModified).toUTCString(),
    },
    body: file.bytes.toString('base64'),
    isBase64Encoded: true,
  };
}

function contentTypeOf(filename: string): string {
  return CONTENT_TYPES.find(([pattern]) => pattern.test(filename))?.[1] ?? 'application/octet-stream';
}

/** RFC 6266: an ASCII fallback name plus the exact name in RFC 5987 encoding. */
function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

export const handler = lambdaHandler(create);
