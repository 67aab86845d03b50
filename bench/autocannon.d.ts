// Types for the part of autocannon's programmatic API the benchmarks use (the package ships none).
declare module "autocannon" {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    p999: number;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    expectBody?: string;
    title?: string;
    /** The run resolves to its raw counts and encoded histograms, to be merged by aggregateResult. */
    skipAggregateResult?: boolean;
  }

  export interface Result {
    title?: string;
    url: string;
    connections: number;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }

  function autocannon(options: Options): Promise<Result> & { stop(): void };
  namespace autocannon {
    /** Merges results of runs made with skipAggregateResult (latencies; request rates are not merged). */
    function aggregateResult(results: unknown[], options?: Partial<Options>): Result;
  }
  export default autocannon;
}
