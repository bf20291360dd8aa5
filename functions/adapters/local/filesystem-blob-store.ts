import { randomUUID } from 'node:crypto';
import { createWriteStream, type Dirent } from 'node:fs';
import { mkdir, open, readdir, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobInfo, BlobPage, BlobStore } from '../../ports/blob-store';

/** Folder under the root for writes in progress; never a key's first segment. */
const TMP_FOLDER = '.tmp';
/** S3's own default and maximum page size. */
const MAX_PAGE = 1000;
/** S3's limit on a key's length. */
const MAX_KEY_BYTES = 1024;

/**
 * The BlobStore port over a folder: the local host's twin of S3 (ARCHITECTURE.md "Local twins").
 * A key `a/b/c` is the file `<root>/a/b/c`. Writes go to `<root>/.tmp` first and are renamed
 * into place, so a reader sees the old bytes or the new ones, never half a file. Listing walks
 * the folders in UTF-8 byte order of the keys, as S3 lists, and the cursor is the last key
 * returned. Unlike S3, a key cannot be both a file and a folder (`a/b` and `a/b/c`): the
 * domain's keys (`<customer>/<bucket>/<filename>`, no `/` in a filename) never are.
 */
export class FilesystemBlobStore implements BlobStore {
  readonly root: string;

  constructor(options: { root: string }) {
    this.root = resolve(options.root);
  }

  async put(key: string, body: Buffer | Readable): Promise<BlobInfo> {
    const target = this.pathOf(key);
    const tmpDir = join(this.root, TMP_FOLDER);
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomUUID());
    try {
      if (Buffer.isBuffer(body)) await writeFile(tmp, body);
      else await pipeline(body, createWriteStream(tmp));
      const info = await stat(tmp);
      await renameInto(tmp, target);
      return { key, size: info.size, lastModified: Math.floor(info.mtimeMs) };
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
  }

  async get(key: string): Promise<Readable | undefined> {
    const path = this.pathOf(key);
    try {
      // Opening first answers "absent" now rather than as a stream error later.
      const handle = await open(path, 'r');
      if (!(await handle.stat()).isFile()) {
        await handle.close();
        return undefined;
      }
      return handle.createReadStream();
    } catch (err) {
      if (isAbsent(err)) return undefined;
      throw err;
    }
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { key, size: info.size, lastModified: Math.floor(info.mtimeMs) } : undefined;
    } catch (err) {
      if (isAbsent(err)) return undefined;
      throw err;
    }
  }

  async list(prefix: string, options: { cursor?: string; limit?: number } = {}): Promise<BlobPage> {
    checkPrefix(prefix);
    const limit = Math.min(Math.max(Math.floor(options.limit ?? MAX_PAGE), 1), MAX_PAGE);
    const startFolder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    const items: BlobInfo[] = [];
    let more = false;
    for await (const key of this.walk(startFolder, prefix, options.cursor)) {
      if (items.length === limit) {
        more = true;
        break;
      }
      const info = await this.head(key);
      if (info) items.push(info); // removed meanwhile: skip it
    }
    return more ? { items, cursor: items[items.length - 1].key } : { items };
  }

  async delete(key: string): Promise<boolean> {
    const path = this.pathOf(key);
    try {
      await unlink(path);
    } catch (err) {
      if (isAbsent(err) || (err as NodeJS.ErrnoException).code === 'EISDIR' || (err as NodeJS.ErrnoException).code === 'EPERM') {
        return false;
      }
      throw err;
    }
    await this.removeEmptyFolders(dirname(path));
    return true;
  }

  async move(fromKey: string, toKey: string): Promise<void> {
    const from = this.pathOf(fromKey);
    const to = this.pathOf(toKey);
    if (!(await this.head(fromKey))) throw new Error(`Cannot move ${fromKey}: no such blob`);
    if (from === to) return;
    await renameInto(from, to);
    await this.removeEmptyFolders(dirname(from));
  }

  /** The file of a key; refuses any key that could name something outside the root. */
  private pathOf(key: string): string {
    const problem = keyProblem(key);
    if (problem) throw new Error(`Invalid blob key ${JSON.stringify(key)}: ${problem}`);
    const path = join(this.root, ...key.split('/'));
    if (!path.startsWith(this.root + sep)) throw new Error(`Invalid blob key ${JSON.stringify(key)}: outside the store`);
    return path;
  }

  /**
   * Keys under `folder` (a key prefix ending in `/`, or '') that begin with `prefix` and come
   * after `cursor`, in UTF-8 byte order. Siblings are sorted with a `/` after folder names, so
   * that a folder's keys sit exactly where `<folder>/...` sorts among its siblings' keys.
   */
  private async *walk(folder: string, prefix: string, cursor: string | undefined): AsyncGenerator<string> {
    let entries: Dirent[];
    try {
      entries = await readdir(folder === '' ? this.root : join(this.root, ...folder.slice(0, -1).split('/')), { withFileTypes: true });
    } catch (err) {
      if (isAbsent(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw err;
    }
    const children = entries
      .filter((e) => (e.isFile() || e.isDirectory()) && !(folder === '' && e.name === TMP_FOLDER))
      .map((e) => ({ isFolder: e.isDirectory(), key: folder + e.name + (e.isDirectory() ? '/' : '') }))
      .sort((a, b) => compareKeys(a.key, b.key));
    for (const child of children) {
      if (child.isFolder) {
        if (!child.key.startsWith(prefix) && !prefix.startsWith(child.key)) continue;
        // Every key of this folder sorts before the cursor: skip the whole subtree.
        if (cursor !== undefined && compareKeys(cursor, child.key) > 0 && !cursor.startsWith(child.key)) continue;
        yield* this.walk(child.key, prefix, cursor);
      } else {
        if (!child.key.startsWith(prefix)) continue;
        if (cursor !== undefined && compareKeys(child.key, cursor) <= 0) continue;
        yield child.key;
      }
    }
  }

  /** Removes now-empty folders from `folder` up to (not including) the root. */
  private async removeEmptyFolders(folder: string): Promise<void> {
    let current = folder;
    while (current.startsWith(this.root + sep)) {
      try {
        await rmdir(current);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
      current = dirname(current);
    }
  }
}

/** Renames into place, creating folders; retried once if a concurrent delete removed the folder. */
async function renameInto(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await mkdir(dirname(to), { recursive: true });
    try {
      await rename(from, to);
      return;
    } catch (err) {
      if (attempt < 2 && isAbsent(err)) continue;
      throw err;
    }
  }
}

/** Why a key is not acceptable, or undefined. */
function keyProblem(key: string): string | undefined {
  if (typeof key !== 'string' || key === '') return 'empty';
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) return `longer than ${MAX_KEY_BYTES} bytes`;
  if (key.includes('\\')) return 'contains a backslash';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'contains a control character';
  const segments = key.split('/');
  if (segments.some((s) => s === '')) return 'has an empty segment';
  if (segments.some((s) => s === '.' || s === '..')) return 'has a . or .. segment';
  if (segments[0] === TMP_FOLDER) return `${TMP_FOLDER} is reserved`;
  return undefined;
}

function checkPrefix(prefix: string): void {
  if (prefix === '') return;
  // The last segment may be partial (and empty); the complete ones must be valid key segments.
  const problem = keyProblem(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix + 'x');
  if (problem) throw new Error(`Invalid blob key prefix ${JSON.stringify(prefix)}: ${problem}`);
}

/** S3's order: UTF-8 bytes (JavaScript's `<` compares UTF-16 units, which differs above U+FFFF). */
function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function isAbsent(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
