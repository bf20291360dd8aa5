// Runs s3rver (an S3 twin on the local disk) in its own process, for the S3 adapter's tests.
// Started by test/support/s3rver.ts as `node --openssl-legacy-provider s3rver-process.cjs <dir> <bucket>`:
// on Node 20, s3rver's paginated listings need the legacy OpenSSL provider.
// Prints one line `{"port": <n>}` when ready; stops when its parent closes stdin or on SIGTERM.
'use strict';
const S3rver = require('s3rver');

const [directory, bucketName] = process.argv.slice(2);
if (!directory || !bucketName) {
  console.error('usage: s3rver-process.cjs <directory> <bucketName>');
  process.exit(2);
}

const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  directory,
  silent: true,
  allowMismatchedSignatures: true,
  configureBuckets: [{ name: bucketName, configs: [] }],
});

server.run((err, address) => {
  if (err) {
    console.error(String(err && err.stack ? err.stack : err));
    process.exit(1);
  }
  process.stdout.write(JSON.stringify({ port: address.port }) + '\n');
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The parent's death closes our stdin: do not outlive it.
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
