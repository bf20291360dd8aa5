import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { S3Client } from '@aws-sdk/client-s3';

export interface S3rverInstance {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucketName: string;
  stop(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL('./s3rver-process.cjs', import.meta.url));

/**
 * Starts a real s3rver (S3 over HTTP, objects on disk in a fresh temp folder) in a child
 * process with one bucket, and answers once it listens. The child runs with
 * `--openssl-legacy-provider`, which s3rver's continuation tokens need on Node 20.
 */
export async function startS3rver(bucketName = 'blob-contract'): Promise<S3rverInstance> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', SCRIPT, directory, bucketName], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`s3rver did not start within 15 s: ${stderr}`)), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with ${code} before it listened: ${stderr}`));
    });
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve((JSON.parse(line) as { port: number }).port);
      } catch {
        reject(new Error(`s3rver printed ${line}`));
      }
    });
  });

  let stopping: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucketName,
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
          child.kill('SIGTERM');
          await exited;
        }
        await rm(directory, { recursive: true, force: true });
      })()),
  };
}

/** An S3 client for s3rver: path-style addresses, dummy credentials, checksums only when required. */
export function s3rverClient(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    // s3rver does not understand the flexible checksums the SDK adds to streamed uploads by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
