import type { Page } from 'playwright-core';
import { dashboardMessages } from '../../../../console/src/pages/dashboard/messages';
import type { Language } from '../harness';
import { ConsolePage } from './console-page';

export interface CoverageRow {
  sku: string;
  available: string;
  coverage: string;
  highlighted: boolean;
  badge: string;
}

/** /console/: stock coverage (period, horizon, table and chart) and stock by warehouse. */
export class DashboardPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = dashboardMessages[language];
  }

  get title() {
    return this.heading(this.t.title);
  }

  period(days: 7 | 30 | 90) {
    return this.page.getByRole('radio', { name: this.t.periodDays(days), exact: true });
  }

  get customDays() {
    return this.page.getByLabel(this.t.customDays, { exact: true });
  }

  get apply() {
    return this.page.getByRole('button', { name: this.t.apply, exact: true });
  }

  get horizon() {
    return this.page.getByLabel(this.t.horizon, { exact: true });
  }

  coverageTable(days: number, horizon: number) {
    return this.page.getByRole('table', { name: this.t.coverageCaption(days, horizon) });
  }

  coverageChartFor(days: number) {
    return this.page.getByRole('img', { name: this.t.coverageChart(days) });
  }

  get warehouseChart() {
    return this.page.getByRole('img', { name: this.t.byWarehouseChart });
  }

  get warehouseTable() {
    return this.page.getByRole('table', { name: this.t.byWarehouseCaption });
  }

  /**
   * The coverage rows once the page for `days` has loaded (not the previous period's rows kept
   * on screen while the new ones come).
   */
  async coverageRows(days: number, horizon: number): Promise<CoverageRow[]> {
    await this.page.locator(`[data-days="${days}"][aria-busy="false"]`).waitFor();
    return this.coverageTable(days, horizon)
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => {
          const cells = Array.from(row.querySelectorAll('td'), (cell) => (cell.textContent ?? '').trim());
          return {
            sku: cells[0] ?? '',
            available: cells[2] ?? '',
            coverage: cells[4] ?? '',
            highlighted: row.classList.contains('highlight'),
            badge: cells[5] ?? '',
          };
        }),
      );
  }

  async warehouseRows(): Promise<string[][]> {
    return this.warehouseTable
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => (cell.textContent ?? '').trim())));
  }

  async customPeriod(days: number): Promise<void> {
    await this.customDays.fill(String(days));
    await this.apply.click();
  }
}
