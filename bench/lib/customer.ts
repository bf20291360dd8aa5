/** The one customer the bench host knows, and the headers of its engine calls. */
export const BENCH_CUSTOMER = { customerCode: 'bench', engineToken: 'bench-engine-token', apiKey: 'bench-api-key' };

export const ENGINE_HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  authorization: `Bearer ${BENCH_CUSTOMER.engineToken}`,
  'x-customer-code': BENCH_CUSTOMER.customerCode,
};

/** Headers of the bench customer's data graph calls (`/_api/v1/...`, `/triggers`). */
export const GRAPH_HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  authorization: `Bearer ${BENCH_CUSTOMER.apiKey}`,
  'x-customer-code': BENCH_CUSTOMER.customerCode,
};
