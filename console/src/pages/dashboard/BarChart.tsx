import { useEffect, useRef, useState } from 'react';
import type { Chart as ChartType } from 'chart.js';

export interface Bar {
  label: string;
  value: number;
  /** Drawn in the warning colour; the table beside says it in words. */
  highlight?: boolean;
}

const NORMAL = '#2f6fb3';
const WARNING = '#b3261e';

/**
 * A horizontal bar chart (Chart.js, loaded on first use). The canvas is an image named by
 * `label`; the same data is always in a table beside it.
 */
export function BarChart({
  bars,
  label,
  unavailable,
  format,
}: {
  bars: readonly Bar[];
  label: string;
  unavailable: string;
  format: (value: number) => string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<ChartType<'bar'> | null>(null);
  const [failed, setFailed] = useState(false);
  const formatRef = useRef(format);
  formatRef.current = format;

  useEffect(() => {
    let cancelled = false;
    const data = {
      labels: bars.map((bar) => bar.label),
      datasets: [{ data: bars.map((bar) => bar.value), backgroundColor: bars.map((bar) => (bar.highlight ? WARNING : NORMAL)) }],
    };
    if (chart.current) {
      chart.current.data = data;
      chart.current.update();
      return;
    }
    import('./chart')
      .then(({ Chart }) => {
        if (cancelled || !canvas.current) return;
        chart.current = new Chart(canvas.current, {
          type: 'bar',
          data,
          options: {
            indexAxis: 'y',
            responsive: true,
            maintainAspectRatio: false,
            animation: false,
            plugins: { tooltip: { callbacks: { label: (item) => formatRef.current(Number(item.raw)) } } },
          },
        });
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [bars]);

  useEffect(
    () => () => {
      chart.current?.destroy();
      chart.current = null;
    },
    [],
  );

  if (failed) return <p className="muted">{unavailable}</p>;
  return (
    <div className="chart" style={{ height: `${Math.max(bars.length, 1) * 28 + 40}px` }}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
