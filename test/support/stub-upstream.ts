import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the stub received, as it arrived on the socket. */
export interface ReceivedRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export interface StubReply {
  status?: number;
  body?: unknown;
  /** Raw text instead of JSON. */
  text?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export type StubRoute = (request: ReceivedRequest) => StubReply | Promise<StubReply>;

/**
 * A web service on 127.0.0.1 for tests and benchmarks: answers by path prefix, records every
 * request, and can add latency.
 */
export interface StubUpstream {
  url: string;
  requests: ReceivedRequest[];
  on(pathPrefix: string, route: StubRoute | StubReply): void;
  stop(): Promise<void>;
}

export async function startStubUpstream(options: { latencyMs?: number } = {}): Promise<StubUpstream> {
  const routes: [string, StubRoute][] = [];
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stub');
    const received: ReceivedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      at: performance.now(),
    };
    requests.push(received);
    const route = [...routes].sort((a, b) => b[0].length - a[0].length).find(([prefix]) => url.pathname.startsWith(prefix));
    const reply: StubReply = route ? await route[1](received) : { status: 404, body: { message: 'no stub route' } };
    const delay = (reply.delayMs ?? 0) + (options.latencyMs ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const body = reply.text ?? JSON.stringify(reply.body ?? null);
    res.writeHead(reply.status ?? 200, {
      'content-type': reply.text !== undefined ? 'text/plain' : 'application/json',
      ...reply.headers,
    });
    res.end(body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    on(prefix, route) {
      routes.push([prefix, typeof route === 'function' ? route : () => route]);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
