import busboy from 'busboy';
import { BadRequestError } from '../../../http/errors';

/** The form field that carries files (COMPAT.md "Buckets": upload field `file[]`). */
export const UPLOAD_FIELD = 'file[]';
/** Parts one upload may hold. */
const MAX_PARTS = 1000;

/** One file part: the filename exactly as sent (paths not stripped) and its bytes. */
export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

/**
 * The `file[]` parts of a `multipart/form-data` body. The body is already whole in memory (an
 * API Gateway event carries at most 6 MB), so the parts are collected, which lets the caller
 * check every filename before writing any. `preservePath` keeps `../x` as sent, so that it is
 * refused rather than silently shortened to `x`. Other fields and parts are ignored.
 */
export function parseUploadedFiles(body: Buffer, contentType: string | undefined): Promise<UploadedFile[]> {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType) || !/boundary=/i.test(contentType)) {
    return Promise.reject(new BadRequestError('The upload must be multipart/form-data with a boundary', 'InvalidMultipart'));
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        preservePath: true,
        defParamCharset: 'utf8',
        limits: { parts: MAX_PARTS, files: MAX_PARTS, fieldSize: body.length + 1, fileSize: body.length + 1 },
      });
    } catch (err) {
      reject(new BadRequestError(`The multipart body cannot be read: ${(err as Error).message}`, 'InvalidMultipart'));
      return;
    }
    const files: UploadedFile[] = [];
    let failed = false;
    const fail = (message: string) => {
      if (failed) return;
      failed = true;
      reject(new BadRequestError(message, 'InvalidMultipart'));
    };
    parser.on('file', (field, stream, info) => {
      if (field !== UPLOAD_FIELD) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (err: Error) => fail(`The multipart body cannot be read: ${err.message}`));
      stream.on('end', () => files.push({ filename: info.filename ?? '', bytes: Buffer.concat(chunks) }));
    });
    parser.on('partsLimit', () => fail(`An upload holds at most ${MAX_PARTS} parts`));
    parser.on('filesLimit', () => fail(`An upload holds at most ${MAX_PARTS} files`));
    parser.on('error', (err: Error) => fail(`The multipart body cannot be read: ${err.message}`));
    parser.on('close', () => {
      if (!failed) resolve(files);
    });
    parser.end(body);
  });
}
