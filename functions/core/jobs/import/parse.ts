import type { Readable } from 'node:stream';
import { readLines } from './lines';

/** One item of a file: a record to import, or a line that could not be read as one. */
export type ParsedItem =
  | { lineNumber: number; record: Record<string, unknown>; endByte: number }
  | { lineNumber: number; problem: string; endByte: number };

/** A file that cannot be read or parsed at all: it goes to the invalid bucket whole. */
export class UnparseableFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnparseableFileError';
  }
}

/**
 * Items of a file per `parseOptions.format`. JSONL streams line by line and can resume at a
 * byte offset; a JSON array and CSV are read whole (their records can span lines).
 */
export async function* parseFile(stream: Readable, format: 'JSONL' | 'JSON' | 'CSV', startByte = 0, firstLine = 1): AsyncGenerator<ParsedItem> {
  if (format === 'JSONL') {
    for await (const line of readLines(stream, startByte, firstLine)) {
      if (line.text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch (err) {
        yield { lineNumber: line.lineNumber, problem: `not valid JSON: ${(err as Error).message}`, endByte: line.endByte };
        continue;
      }
      yield isRecord(value)
        ? { lineNumber: line.lineNumber, record: value, endByte: line.endByte }
        : { lineNumber: line.lineNumber, problem: 'a line must hold a JSON object', endByte: line.endByte };
    }
    return;
  }
  const text = await readAll(stream);
  const records = format === 'JSON' ? parseJsonArray(text) : parseCsv(text);
  // Whole-file formats resume by item index, kept in the byte offset's place.
  for (let i = startByte; i < records.length; i++) {
    const record = records[i];
    yield isRecord(record.value)
      ? { lineNumber: record.line, record: record.value, endByte: i + 1 }
      : { lineNumber: record.line, problem: 'an item must be a JSON object', endByte: i + 1 };
  }
}

function parseJsonArray(text: string): { line: number; value: unknown }[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UnparseableFileError(`The file is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(value)) throw new UnparseableFileError('A JSON file must hold an array of records');
  return value.map((v, i) => ({ line: i + 1, value: v }));
}

/** RFC 4180 CSV: a header row, quoted fields with "" escapes and newlines; values stay strings. */
export function parseCsv(text: string): { line: number; value: Record<string, string> }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      if (cells.length > 1 || cells[0] !== '') rows.push({ line: rowLine, cells });
      cells = [];
      cell = '';
      line++;
      rowLine = line;
    } else cell += c;
  }
  if (quoted) throw new UnparseableFileError(`Unterminated quoted field starting on line ${rowLine}`);
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    rows.push({ line: rowLine, cells });
  }
  if (rows.length === 0) throw new UnparseableFileError('The CSV file has no header row');
  const header = rows[0].cells.map((h) => h.trim());
  if (header.some((h) => h === '') || new Set(header).size !== header.length) {
    throw new UnparseableFileError('The CSV header must name every column once');
  }
  return rows.slice(1).map((row) => ({ line: row.line, value: Object.fromEntries(header.map((h, i) => [h, row.cells[i] ?? ''])) }));
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
