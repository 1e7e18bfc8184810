import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';

/**
 * Chart.js with only what the dashboard's horizontal bar charts draw, so the bundler drops the
 * rest. This module is imported dynamically (BarChart.tsx): Chart.js lands in its own chunk,
 * loaded by the dashboard only, never on the first page's budget.
 */
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

export { Chart };
