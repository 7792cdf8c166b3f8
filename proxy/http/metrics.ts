type Labels = Record<string, string>;

const labelText = (labels: Labels) => {
  const pairs = Object.entries(labels).map(([key, value]) => `${key}="${value.replace(/["\\\n]/g, '_')}"`);
  return pairs.length ? `{${pairs.join(',')}}` : '';
};

const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The proxy's counters, rendered in the Prometheus text format. */
export class Metrics {
  private readonly counters = new Map<string, { name: string; labels: Labels; value: number }>();
  private readonly histogram = { buckets: UPSTREAM_BUCKETS.map(() => 0), count: 0, sum: 0 };

  count(name: string, labels: Labels = {}): void {
    const key = name + labelText(labels);
    const counter = this.counters.get(key);
    if (counter) counter.value++;
    else this.counters.set(key, { name, labels, value: 1 });
  }

  observeUpstream(seconds: number): void {
    this.histogram.count++;
    this.histogram.sum += seconds;
    UPSTREAM_BUCKETS.forEach((bound, index) => {
      if (seconds <= bound) this.histogram.buckets[index]!++;
    });
  }

  render(gauges: Record<string, number>): string {
    const lines: string[] = [];
    const byName = new Map<string, string[]>();
    for (const { name, labels, value } of this.counters.values()) {
      if (!byName.has(name)) byName.set(name, []);
      byName.get(name)!.push(`${name}${labelText(labels)} ${value}`);
    }
    for (const [name, samples] of [...byName].sort(([a], [b]) => a.localeCompare(b))) lines.push(`# TYPE ${name} counter`, ...samples);
    lines.push(
      '# HELP doclens_upstream_duration_seconds Time to a complete upstream response.',
      '# TYPE doclens_upstream_duration_seconds histogram',
    );
    for (const [index, bound] of UPSTREAM_BUCKETS.entries()) {
      lines.push(`doclens_upstream_duration_seconds_bucket{le="${bound}"} ${this.histogram.buckets[index]}`);
    }
    lines.push(
      `doclens_upstream_duration_seconds_bucket{le="+Inf"} ${this.histogram.count}`,
      `doclens_upstream_duration_seconds_sum ${this.histogram.sum}`,
      `doclens_upstream_duration_seconds_count ${this.histogram.count}`,
    );
    for (const [name, value] of Object.entries(gauges)) lines.push(`# TYPE ${name} gauge`, `${name} ${value}`);
    return `${lines.join('\n')}\n`;
  }
}
