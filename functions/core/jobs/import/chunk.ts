import { Readable } from 'node:stream';
import type { RecordService } from '../../graph/records/service';
import type { ImportParams } from '../model';
import { ERRORS_SUFFIX, moveFile, readFile, type ImportFiles } from './files';
import { parseFile, UnparseableFileError, type ParsedItem } from './parse';
import type { PreparedTransformers } from './sandbox';

/** One problem line of a file's error file. */
export interface ImportError {
  line: number;
  identifier?: string;
  problems: string[];
}

/** Where an import of one file stands; it travels between chunks, so it stays small. */
export interface FileProgress {
  /** `check` reads the whole file first when one bad record must keep every record out. */
  phase: 'check' | 'write' | 'finish';
  /** Byte offset (JSONL) or item index (JSON, CSV) to resume at. */
  offset: number;
  line: number;
  created: number;
  updated: number;
  invalid: number;
  /** The first problems, for the error file (at most MAX_KEPT_ERRORS). */
  errors: ImportError[];
  /** Set when the file could not be read or parsed at all. */
  unreadable?: string;
  outcome?: 'processed' | 'invalid' | 'missing';
}

export const MAX_KEPT_ERRORS = 200;
const MAX_PROBLEM_LENGTH = 300;
/** Records sent to the sandbox and the store together. */
const BATCH = 500;

export interface ChunkContext extends ImportFiles {
  records: RecordService;
  /** Transformers run here; undefined when the import has none. */
  sandbox?: PreparedTransformers;
  /** Records one invocation handles before handing back (keeps each task far from Lambda's limit). */
  chunkRecords: number;
}

/**
 * One chunk of one file of an import (INTERFACE.md "Import body", COMPAT.md bucket semantics).
 * Each record is parsed, run through the transformers in order, given its identifier and
 * checked against the schema. With `skipInvalidRecords: false` a first pass reads the whole
 * file and any problem sends the file whole to the invalid bucket, nothing written; otherwise
 * the valid records are upserted and the file goes to the processed bucket, with an error file
 * beside it when something was invalid. The file stays where it is until it is finished, so a
 * crash loses nothing: running the import again finishes the work (upserts are idempotent).
 */
export async function importChunk(
  ctx: ChunkContext,
  params: ImportParams & { sourceBucketCode: string },
  filename: string,
  previous: Partial<FileProgress>,
): Promise<{ done: boolean; progress: FileProgress }> {
  const progress: FileProgress = {
    phase: params.skipInvalidRecords ? 'write' : 'check',
    offset: 0,
    line: 1,
    created: 0,
    updated: 0,
    invalid: 0,
    errors: [],
    ...previous,
  };
  if (progress.phase !== 'finish') {
    const stream = await readFile(ctx, params.sourceBucketCode, filename);
    if (!stream) return { done: true, progress: { ...progress, outcome: 'missing' } };
    try {
      const finished = await readChunk(ctx, params, stream, progress);
      if (!finished) return { done: false, progress };
      if (progress.phase === 'check' && progress.invalid === 0) {
        // The whole file is valid: write it, from the top.
        return { done: false, progress: { ...progress, phase: 'write', offset: 0, line: 1 } };
      }
    } catch (err) {
      if (!(err instanceof UnparseableFileError)) throw err;
      stream.destroy();
      progress.unreadable = err.message;
    }
    progress.phase = 'finish';
  }
  return { done: true, progress: await finish(ctx, params, filename, progress) };
}

/** Reads from the progress' offset; true at the end of the file, false when the chunk is full. */
async function readChunk(ctx: ChunkContext, params: ImportParams, stream: Readable, progress: FileProgress): Promise<boolean> {
  const target = await ctx.records.importTarget(ctx.customerCode, params.collectionCode);
  let batch: ParsedItem[] = [];
  let handled = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await handleBatch(ctx, params, target, batch, progress);
    const last = batch[batch.length - 1];
    progress.offset = last.endByte;
    progress.line = last.lineNumber + 1;
    handled += batch.length;
    batch = [];
  };
  for await (const item of parseFile(stream, params.parseOptions.format, progress.offset, progress.line)) {
    batch.push(item);
    if (batch.length === BATCH) {
      await flush();
      if (handled >= ctx.chunkRecords) {
        stream.destroy();
        return false;
      }
    }
  }
  await flush();
  return true;
}

async function handleBatch(
  ctx: ChunkContext,
  params: ImportParams,
  target: Awaited<ReturnType<RecordService['importTarget']>>,
  items: ParsedItem[],
  progress: FileProgress,
): Promise<void> {
  const parsed = items.filter((i): i is Extract<ParsedItem, { record: unknown }> => 'record' in i);
  for (const item of items) if ('problem' in item) addError(progress, { line: item.lineNumber, problems: [item.problem] });

  const outcomes = ctx.sandbox ? await ctx.sandbox.run(parsed.map((p) => p.record)) : parsed.map((p) => ({ ok: true as const, value: p.record }));
  const valid: { id: string; fields: Record<string, unknown> }[] = [];
  outcomes.forEach((outcome, i) => {
    const line = parsed[i].lineNumber;
    if (!outcome.ok) {
      addError(progress, { line, identifier: identifierOf(parsed[i].record, params, target), problems: [`transformer: ${outcome.error}`] });
      return;
    }
    const record = outcome.value as Record<string, unknown>;
    const checked = ctx.records.checkForImport(target, record, params.recordIdentifierField);
    if (checked.problems.length > 0) addError(progress, { line, identifier: identifierOf(record, params, target), problems: checked.problems });
    else valid.push({ id: checked.id, fields: checked.fields });
  });
  if (progress.phase === 'write' && valid.length > 0) {
    const { created, updated } = await ctx.records.importRecords(target, valid);
    progress.created += created;
    progress.updated += updated;
  }
}

async function finish(ctx: ChunkContext, params: ImportParams & { sourceBucketCode: string }, filename: string, progress: FileProgress): Promise<FileProgress> {
  const invalid = progress.unreadable !== undefined || (progress.invalid > 0 && !params.skipInvalidRecords);
  const destination = invalid ? params.invalidBucketCode : params.processedBucketCode;
  if (progress.unreadable !== undefined || progress.invalid > 0) {
    const report = {
      filename,
      ...(progress.unreadable !== undefined ? { unreadable: progress.unreadable } : {}),
      invalidRecords: progress.invalid,
      errors: progress.errors,
      ...(progress.invalid > progress.errors.length ? { truncated: true } : {}),
    };
    await ctx.files.putFile(ctx.customerCode, destination, {
      filename: filename + ERRORS_SUFFIX,
      body: Readable.from([Buffer.from(JSON.stringify(report, null, 2))]),
    });
  }
  await moveFile(ctx, params.sourceBucketCode, destination, filename);
  return { ...progress, phase: 'finish', outcome: invalid ? 'invalid' : 'processed' };
}

function addError(progress: FileProgress, error: ImportError): void {
  progress.invalid++;
  if (progress.errors.length < MAX_KEPT_ERRORS) {
    progress.errors.push({ ...error, problems: error.problems.map((p) => (p.length > MAX_PROBLEM_LENGTH ? `${p.slice(0, MAX_PROBLEM_LENGTH)}...` : p)) });
  }
}

function identifierOf(record: Record<string, unknown>, params: ImportParams, target: { context: { collection: { dataRecordIdentifierProperty: string } } }): string | undefined {
  const value = record[params.recordIdentifierField ?? target.context.collection.dataRecordIdentifierProperty];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
