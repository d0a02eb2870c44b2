/** The part of autocannon's API that tests/bench/load.ts uses (the package ships no types). */
declare module 'autocannon' {
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }
  interface Options {
    url: string;
    method?: string;
    connections?: number;
    duration?: number;
    /** Requests per second of the whole run. */
    overallRate?: number;
    headers?: Record<string, string>;
    /** `context`: one object per connection, shared by the list's requests and fresh for each turn through it. */
    requests?: { setupRequest?: (request: Request, context: Record<string, unknown>) => Request }[];
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
