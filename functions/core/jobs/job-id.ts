import { randomBytes } from 'node:crypto';

/**
 * A UUID version 7: a valid UUID whose first 48 bits are the creation time in milliseconds,
 * so job ids sort by creation and the newest-first job list is one descending Query.
 */
export function newJobId(now: number): string {
  const bytes = randomBytes(16);
  let time = BigInt(now);
  for (let i = 5; i >= 0; i--) {
    bytes[i] = Number(time & 0xffn);
    time >>= 8n;
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
