import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriteCommand, BatchGetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalDynamo } from '../../functions/adapters/local/local-dynamo';
import { toRecordItem, recordKey } from '../../functions/core/graph/records/record-item';

const mode = process.argv[2] ?? 'mem';
const path = mode === 'disk' ? join(await mkdtemp(join(tmpdir(), 'dyn-')), 'dynamodb') : undefined;
const d = await startLocalDynamo({ tableName: 'raw', path });
const N = Number(process.argv[3] ?? 10000);
const rec = (i: number) => toRecordItem('bench', 'c1', { id: `r${i}`, title: `Title ${i}`, year: 1950 + (i % 70), dataRecordIdentifier: `r${i}`, '@iat': Date.now(), '@uat': Date.now() });
let t = performance.now();
let next = 0;
const worker = async () => { while (next < N) { const s = next; next += 25; const items = []; for (let i = s; i < Math.min(N, s + 25); i++) items.push(rec(i)); await d.client.send(new BatchWriteCommand({ RequestItems: { raw: items.map((Item) => ({ PutRequest: { Item } })) } })); } };
await Promise.all([worker(), worker(), worker(), worker()]);
let ms = performance.now() - t; console.log(mode, 'batchWrite', N, Math.round(N / ms * 1000), '/s');
// put conditional
t = performance.now(); next = 0; const M = N/2;
const w2 = async () => { while (next < M) { const i = N + next++; await d.client.send(new PutCommand({ TableName: 'raw', Item: rec(i), ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': 'pk' }, ReturnValues: 'ALL_OLD' })); } };
await Promise.all(Array.from({ length: 16 }, w2));
ms = performance.now() - t; console.log(mode, 'put', M, Math.round(M / ms * 1000), '/s');
t = performance.now();
for (let b = 0; b < 50; b++) await d.client.send(new BatchGetCommand({ RequestItems: { raw: { Keys: Array.from({ length: 100 }, (_, j) => recordKey('bench', 'c1', `r${b * 100 + j}`)), ConsistentRead: true } } }));
ms = performance.now() - t; console.log(mode, 'batchGet100', (ms / 50).toFixed(2), 'ms each');
t = performance.now(); let items = 0;
for (let s = 0; s < 16; s++) { let k; do { const out = await d.client.send(new QueryCommand({ TableName: 'raw', KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'pk' }, ExpressionAttributeValues: { ':pk': `REC#bench#c1#${s.toString(16).padStart(2, '0')}` }, Limit: 500, ExclusiveStartKey: k })); items += out.Items!.length; k = out.LastEvaluatedKey; } while (k); }
ms = performance.now() - t; console.log(mode, 'readAll', items, ms.toFixed(0), 'ms');
await d.stop();
