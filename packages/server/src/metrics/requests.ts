import type { Metric, Registry } from 'prom-client';

/** Upper bounds in seconds. Few: most answers take well under a millisecond, and each is a line per series. */
export const DURATION_BUCKETS = [0.001, 0.005, 0.025, 0.1, 0.5, 2.5, 10];

/** The route label of an answer no route gave (unknown paths, the web app's 404 page, bad URLs). */
export const UNMATCHED_ROUTE = 'unmatched';

interface Labels {
  method: string;
  route: string;
  status: number;
}

interface Cell {
  labels: Labels;
  count: number;
  sum: number;
  /** Answers per bucket, not cumulative; the last one counts those above the largest bound. */
  perBucket: number[];
}

/** A sample as prom-client's Registry prints it: `metricName{labels} value`. */
interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** `/news/:id(^[1-9][0-9]{0,9}$)` → `/news/:id`: the pattern as people write it, without the id constraint. */
const routeLabel = (url: string | undefined) =>
  url === undefined ? UNMATCHED_ROUTE : url.replace(/(:\w+)\([^/]*\)/g, '$1');

/**
 * `http_requests_total` and the histogram `http_request_duration_seconds`, by method, route pattern
 * and status. The route is the pattern the route was declared with, never the URL, so ids and cursors
 * cannot grow the number of series; an answer no route gave is `unmatched`. Methods are the few that
 * Node's HTTP parser accepts, statuses the few this server answers.
 *
 * Kept here rather than in prom-client's Counter and Histogram, whose every call builds a string key
 * of its labels and checks each label's name: here an answer costs three map lookups and a few
 * additions, and allocates nothing once its series exists. The figures take prom-client's shape only
 * when scraped: the two objects registered below are read by the Registry as its own metrics are
 * (name, help, type, `get()`); test/api/ops.test.ts parses what it prints.
 */
export function requestMetrics(registry: Registry) {
  let cells: Cell[] = [];
  let byRoute = new Map<string | undefined, Map<string, Map<number, Cell>>>();

  function cellOf(url: string | undefined, method: string, status: number): Cell {
    let byMethod = byRoute.get(url);
    if (!byMethod) byRoute.set(url, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let cell = byStatus.get(status);
    if (!cell) {
      cell = {
        labels: { method, route: routeLabel(url), status },
        count: 0,
        sum: 0,
        perBucket: new Array<number>(DURATION_BUCKETS.length + 1).fill(0),
      };
      byStatus.set(status, cell);
      cells.push(cell);
    }
    return cell;
  }

  const collector = (name: string, help: string, type: 'counter' | 'histogram', samples: () => Sample[]) => {
    const metric = {
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: samples() }),
      reset: () => {
        cells = [];
        byRoute = new Map();
      },
    };
    registry.registerMetric(metric as unknown as Metric);
  };
  collector('http_requests_total', 'HTTP requests answered, by method, route pattern and status', 'counter', () =>
    cells.map((cell) => ({ metricName: 'http_requests_total', labels: { ...cell.labels }, value: cell.count })),
  );
  collector(
    'http_request_duration_seconds',
    'Time from a request arriving to its answer sent, in seconds',
    'histogram',
    () =>
      cells.flatMap((cell) => {
        let cumulative = 0;
        const name = 'http_request_duration_seconds';
        return [
          ...DURATION_BUCKETS.map((le, i) => ({
            metricName: `${name}_bucket`,
            labels: { ...cell.labels, le },
            value: (cumulative += cell.perBucket[i]!),
          })),
          { metricName: `${name}_bucket`, labels: { ...cell.labels, le: '+Inf' }, value: cell.count },
          { metricName: `${name}_sum`, labels: { ...cell.labels }, value: cell.sum },
          { metricName: `${name}_count`, labels: { ...cell.labels }, value: cell.count },
        ];
      }),
  );

  return {
    /** One answer: the pattern of the route that gave it (undefined: none), its method, status and duration. */
    record(url: string | undefined, method: string, status: number, seconds: number): void {
      const cell = cellOf(url, method, status);
      cell.count += 1;
      cell.sum += seconds;
      let i = 0;
      while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++;
      cell.perBucket[i]! += 1;
    },
  };
}
