// The part of autocannon's API that bench/scale.ts uses (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
      connections?: number;
      duration?: number;
      headers?: Record<string, string>;
      body?: string;
      /** Replaces `[<id>]` in the body with a unique id per request. */
      idReplacement?: boolean;
    }

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
    }

    interface Result {
      requests: Histogram;
      latency: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
    }
  }

  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
